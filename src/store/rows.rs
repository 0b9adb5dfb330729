//! Reading columns from a row of either database.

use sqlx::postgres::PgRow;
use sqlx::sqlite::SqliteRow;
use sqlx::{Decode, Postgres, Row, Sqlite, Type};

use super::Result;

/// A row that holds columns of type `T`.
pub(crate) trait Get<T> {
    fn get_column(&self, name: &str) -> Result<T>;
}

impl<T> Get<T> for SqliteRow
where
    T: for<'r> Decode<'r, Sqlite> + Type<Sqlite>,
{
    fn get_column(&self, name: &str) -> Result<T> {
        Ok(self.try_get(name)?)
    }
}

impl<T> Get<T> for PgRow
where
    T: for<'r> Decode<'r, Postgres> + Type<Postgres>,
{
    fn get_column(&self, name: &str) -> Result<T> {
        Ok(self.try_get(name)?)
    }
}

/// A row of either database, with every column type the store reads.
pub(crate) trait Columns:
    Get<String>
    + Get<Option<String>>
    + Get<i64>
    + Get<Option<i64>>
    + Get<f64>
    + Get<Option<f64>>
    + Get<bool>
    + Get<chrono::DateTime<chrono::Utc>>
    + Get<Option<chrono::DateTime<chrono::Utc>>>
    + Get<Option<Vec<u8>>>
{
}

impl<R> Columns for R where
    R: Get<String>
        + Get<Option<String>>
        + Get<i64>
        + Get<Option<i64>>
        + Get<f64>
        + Get<Option<f64>>
        + Get<bool>
        + Get<chrono::DateTime<chrono::Utc>>
        + Get<Option<chrono::DateTime<chrono::Utc>>>
        + Get<Option<Vec<u8>>>
{
}

/// Reads a column that the schema guarantees, naming the column on failure.
pub(crate) fn column<T, R: Get<T>>(row: &R, name: &str) -> Result<T> {
    row.get_column(name)
}
