//! The database a test server runs on: a SQLite file of its own, or — with
//! `GOBANG_TEST_BACKEND=postgres` — a PostgreSQL database of its own made
//! on the server at `GOBANG_TEST_POSTGRES_URL`, so that the whole suite runs
//! against either backend, tests in parallel.

use std::path::Path;

use sqlx::Connection;

/// The PostgreSQL server for tests, if one is given.
pub fn postgres_url() -> Option<String> {
    std::env::var("GOBANG_TEST_POSTGRES_URL")
        .ok()
        .filter(|url| !url.is_empty())
}

/// Whether the suite runs on PostgreSQL.
pub fn on_postgres() -> bool {
    match std::env::var("GOBANG_TEST_BACKEND").as_deref() {
        Ok("postgres") => {
            assert!(
                postgres_url().is_some(),
                "GOBANG_TEST_BACKEND=postgres needs GOBANG_TEST_POSTGRES_URL (e.g. postgres://postgres@127.0.0.1:5432/test)"
            );
            true
        }
        Ok("sqlite") | Ok("") | Err(_) => false,
        Ok(other) => panic!("GOBANG_TEST_BACKEND={other}: use sqlite or postgres"),
    }
}

/// A fresh database for one test server: a file named `name` in `dir`, or
/// on PostgreSQL a new database.
pub async fn fresh_database(dir: &Path, name: &str) -> String {
    if on_postgres() {
        fresh_postgres_database().await
    } else {
        format!("sqlite:{}", dir.join(name).display())
    }
}

/// A new, empty PostgreSQL database on the test server; its URL. Panics
/// when no server is given (callers check [`postgres_url`] first).
pub async fn fresh_postgres_database() -> String {
    let admin = postgres_url().expect("GOBANG_TEST_POSTGRES_URL is set");
    let name = format!("gobang_t_{}", uuid_like());
    let mut conn = sqlx::PgConnection::connect(&admin)
        .await
        .expect("the test PostgreSQL server answers at GOBANG_TEST_POSTGRES_URL");
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut conn)
        .await
        .expect("a test database can be created");
    conn.close().await.ok();
    with_database(&admin, &name)
}

/// `url` with its database replaced by `name`.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host_end = base[scheme_end..]
        .find('/')
        .map_or(base.len(), |i| scheme_end + i);
    let mut out = format!("{}/{name}", &base[..host_end]);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    out
}

fn uuid_like() -> String {
    let n: u128 = rand::random();
    format!("{n:032x}")
}

#[test]
fn a_database_name_replaces_the_one_in_the_url() {
    assert_eq!(
        with_database("postgres://postgres@127.0.0.1:5432/test", "x"),
        "postgres://postgres@127.0.0.1:5432/x"
    );
    assert_eq!(
        with_database("postgres://u@h/test?sslmode=disable", "x"),
        "postgres://u@h/x?sslmode=disable"
    );
    assert_eq!(with_database("postgres://u@h", "x"), "postgres://u@h/x");
}
