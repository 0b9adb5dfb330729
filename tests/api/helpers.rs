//! `spawn_app()` and request helpers shared by the API tests.

use actix_web::dev::ServerHandle;
use gobang::api::RateLimitConfig;
use gobang::service::{ComputerConfig, OnlineConfig};
use gobang::startup::{Application, Settings};
use reqwest::{Response, StatusCode};
use serde_json::{Value, json};

pub use crate::database::fresh_database;

use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    /// The database's URL (a SQLite file, or a PostgreSQL database: see
    /// `database`).
    pub database: String,
    server: Server,
    /// Keeps the database's directory alive for the test.
    pub dir: std::sync::Arc<tempfile::TempDir>,
}

/// A server on a fresh database.
pub async fn spawn_app() -> TestApp {
    let dir = std::sync::Arc::new(tempfile::tempdir().expect("a temporary directory"));
    let database = fresh_database(dir.path(), "gobang.db").await;
    spawn_app_on(database, dir).await
}

/// A server on the given database (to restart on the same one).
pub async fn spawn_app_on(database: String, dir: std::sync::Arc<tempfile::TempDir>) -> TestApp {
    let computer = ComputerConfig {
        default_budget: std::time::Duration::from_millis(200),
        ..ComputerConfig::default()
    };
    spawn_app_with(database, dir, computer).await
}

/// A server with its own settings for the computer.
pub async fn spawn_app_with(
    database: String,
    dir: std::sync::Arc<tempfile::TempDir>,
    computer: ComputerConfig,
) -> TestApp {
    spawn_app_configured(database, dir, computer, OnlineConfig::default()).await
}

/// A server on a fresh database with its own settings for online play.
pub async fn spawn_app_online(online: OnlineConfig) -> TestApp {
    let dir = std::sync::Arc::new(tempfile::tempdir().expect("a temporary directory"));
    let database = fresh_database(dir.path(), "gobang.db").await;
    let computer = ComputerConfig {
        default_budget: std::time::Duration::from_millis(200),
        ..ComputerConfig::default()
    };
    spawn_app_configured(database, dir, computer, online).await
}

/// A server on a fresh database with rate limits on, as given.
pub async fn spawn_app_limited(rate_limits: RateLimitConfig) -> TestApp {
    let dir = std::sync::Arc::new(tempfile::tempdir().expect("a temporary directory"));
    let database = fresh_database(dir.path(), "gobang.db").await;
    let computer = ComputerConfig {
        default_budget: std::time::Duration::from_millis(200),
        ..ComputerConfig::default()
    };
    spawn_app_full(
        database,
        dir,
        computer,
        OnlineConfig::default(),
        rate_limits,
    )
    .await
}

async fn spawn_app_configured(
    database: String,
    dir: std::sync::Arc<tempfile::TempDir>,
    computer: ComputerConfig,
    online: OnlineConfig,
) -> TestApp {
    // The suite's servers run without rate limits unless a test asks.
    spawn_app_full(database, dir, computer, online, RateLimitConfig::off()).await
}

async fn spawn_app_full(
    database: String,
    dir: std::sync::Arc<tempfile::TempDir>,
    computer: ComputerConfig,
    online: OnlineConfig,
    rate_limits: RateLimitConfig,
) -> TestApp {
    let settings = Settings {
        address: "127.0.0.1".into(),
        port: 0,
        database_url: database.clone(),
        cors_origins: vec!["https://widget.example".into()],
        computer,
        online,
        workers: Some(2),
        rate_limits,
        slow_request: std::time::Duration::from_secs(1),
    };
    let app = Application::build(settings)
        .await
        .expect("the server starts");
    let address = format!("http://127.0.0.1:{}", app.port());
    let handle = app.handle();
    let task = tokio::spawn(app.run_until_stopped());
    TestApp {
        address,
        client: reqwest::Client::new(),
        database,
        server: Server::InProcess { handle, task },
        dir,
    }
}

/// Where a test's server runs.
enum Server {
    /// In the test's process.
    InProcess {
        handle: ServerHandle,
        task: tokio::task::JoinHandle<std::io::Result<()>>,
    },
    /// `gobang serve` as a process of its own (killed with the test).
    Process(KillOnDrop),
}

/// A child process that does not outlive its test.
pub struct KillOnDrop(pub Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `gobang serve` as a process of its own on `database` (a URL), once it
/// answers.
pub async fn serve_app(database: &str) -> TestApp {
    let (child, address) = serve(database);
    let child = KillOnDrop(child);
    let client = reqwest::Client::new();
    until_up(&client, &address).await;
    TestApp {
        address,
        client,
        database: database.to_string(),
        server: Server::Process(child),
        dir: std::sync::Arc::new(tempfile::tempdir().expect("a temporary directory")),
    }
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub async fn get(&self, path: &str) -> Response {
        self.client
            .get(self.url(path))
            .send()
            .await
            .expect("the request is sent")
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Option<Value>) -> Response {
        let mut request = self.client.post(self.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        request.send().await.expect("the request is sent")
    }

    /// A new player: (id, token).
    pub async fn player(&self, name: &str) -> (String, String) {
        let response = self
            .post("/v1/players", None, Some(json!({ "name": name })))
            .await;
        assert_eq!(response.status(), StatusCode::CREATED);
        let body: Value = response.json().await.unwrap();
        (
            body["id"].as_str().unwrap().into(),
            body["token"].as_str().unwrap().into(),
        )
    }

    /// Creates a game and returns the created body.
    pub async fn create_game(&self, token: Option<&str>, body: Value) -> Value {
        let response = self.post("/v1/games", token, Some(body)).await;
        assert_eq!(
            response.status(),
            StatusCode::CREATED,
            "{}",
            response.text().await.unwrap()
        );
        response.json().await.unwrap()
    }

    /// A local game (one player in both seats): (game id, token).
    pub async fn local_game(&self, rules: Value) -> (String, String) {
        let (_, token) = self.player("Hot Seat").await;
        let mut body = rules;
        body["black"] = json!("me");
        body["white"] = json!("me");
        let created = self.create_game(Some(&token), body).await;
        (created["game"]["id"].as_str().unwrap().into(), token)
    }

    /// An online game: `host` plays black and invites `guest_id`, who
    /// accepts with `guest`; `extra` adds to the create body (rules, clock).
    /// Returns the game id.
    pub async fn online_game(
        &self,
        host: &str,
        guest_id: &str,
        guest: &str,
        extra: Value,
    ) -> String {
        let mut body = extra;
        body["black"] = json!("me");
        body["white"] = json!({ "player_id": guest_id });
        let created = self.create_game(Some(host), body).await;
        assert_eq!(created["game"]["status"], "waiting");
        assert_eq!(created["game"]["invited"], "white");
        let game = created["game"]["id"].as_str().unwrap().to_string();
        let accepted = self
            .post(&format!("/v1/games/{game}/accept"), Some(guest), None)
            .await;
        assert_eq!(accepted.status(), StatusCode::OK);
        game
    }

    /// POSTs to `/v1/games/{game}/{action}` as `token`; must succeed with
    /// `status`. Returns the body.
    pub async fn act(&self, game: &str, action: &str, token: &str, status: StatusCode) -> Value {
        let response = self
            .post(&format!("/v1/games/{game}/{action}"), Some(token), None)
            .await;
        let actual = response.status();
        let body: Value = response.json().await.unwrap();
        assert_eq!(actual, status, "{action}: {body}");
        body
    }

    pub async fn play(&self, game: &str, token: &str, at: &str) -> Response {
        self.post(
            &format!("/v1/games/{game}/moves"),
            Some(token),
            Some(json!({ "at": at })),
        )
        .await
    }

    /// Plays a move that must be accepted; returns the response body.
    pub async fn play_ok(&self, game: &str, token: &str, at: &str) -> Value {
        let response = self.play(game, token, at).await;
        let status = response.status();
        let body: Value = response.json().await.unwrap();
        assert_eq!(status, StatusCode::OK, "{at}: {body}");
        body
    }

    pub async fn game(&self, id: &str) -> Value {
        let response = self.get(&format!("/v1/games/{id}")).await;
        assert_eq!(response.status(), StatusCode::OK);
        response.json().await.unwrap()
    }

    /// The game once its version is past `version` (a long poll of 10 s).
    pub async fn wait_for_version(&self, id: &str, version: i64) -> Value {
        let response = self
            .get(&format!(
                "/v1/games/{id}?wait_for_version={version}&timeout=10"
            ))
            .await;
        assert_eq!(response.status(), StatusCode::OK);
        response.json().await.unwrap()
    }

    /// The game as text (`Accept: text/plain`).
    pub async fn game_text(&self, id: &str) -> String {
        self.client
            .get(self.url(&format!("/v1/games/{id}")))
            .header("accept", "text/plain")
            .send()
            .await
            .expect("the request is sent")
            .text()
            .await
            .unwrap()
    }

    pub async fn player_stats(&self, id: &str) -> Value {
        self.get(&format!("/v1/players/{id}"))
            .await
            .json()
            .await
            .unwrap()
    }

    /// Stops the server gracefully and waits for it.
    pub async fn stop(self) -> (String, std::sync::Arc<tempfile::TempDir>) {
        match self.server {
            Server::InProcess { handle, task } => {
                handle.stop(true).await;
                task.await.unwrap().unwrap();
            }
            Server::Process(mut child) => {
                let pid = child.0.id().to_string();
                Command::new("kill")
                    .args(["-TERM", &pid])
                    .status()
                    .expect("kill runs");
                let _ = child.0.wait();
            }
        }
        (self.database, self.dir)
    }

    /// Kills the server's process at once (SIGKILL), as a crash would.
    pub fn kill(&mut self) {
        match &mut self.server {
            Server::Process(child) => {
                child.0.kill().expect("the server's process can be killed");
                let _ = child.0.wait();
            }
            Server::InProcess { .. } => panic!("only a server process can be killed"),
        }
    }
}

/// Asserts a problem+json answer with `status` and `code`; returns the body.
pub async fn assert_problem(response: Response, status: StatusCode, code: &str) -> Value {
    assert_eq!(response.status(), status);
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_string();
    assert_eq!(content_type, "application/problem+json");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], code, "{body}");
    assert_eq!(body["status"], status.as_u16());
    assert!(body["title"].is_string() && body["type"].is_string());
    assert!(!body["detail"].as_str().unwrap().is_empty());
    body
}

/// `gobang serve` as its own process on a free port and `database` (a URL).
pub fn serve(database: &str) -> (Child, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(env!("CARGO_BIN_EXE_gobang"))
        .args(["serve", "--rate-limits", "off", "--port", &port.to_string()])
        .arg("--database-url")
        .arg(database)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("gobang serve starts");
    (child, format!("http://127.0.0.1:{port}"))
}

pub async fn until_up(client: &reqwest::Client, url: &str) {
    for _ in 0..100 {
        if client.get(format!("{url}/healthz")).send().await.is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server did not come up at {url}");
}
