//! Chromium, headless, driven over WebDriver (chromedriver): one driver
//! process per test, a browser session per person at the board.
//!
//! Without Chromium the tests skip with one line; with
//! `GOBANG_REQUIRE_BROWSER=1` (as `.ci/run` sets) a missing browser fails
//! them instead.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

/// How long a page may take to show what a test waits for.
const PATIENCE: Duration = Duration::from_secs(20);

fn find(env: &str, candidates: &[&str]) -> Option<PathBuf> {
    if let Ok(path) = std::env::var(env) {
        return Some(PathBuf::from(path));
    }
    candidates
        .iter()
        .map(Path::new)
        .find(|p| p.exists())
        .map(Path::to_path_buf)
}

/// A running chromedriver; killed when dropped.
pub struct Driver {
    process: Child,
    url: String,
    chromium: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

impl Driver {
    /// Starts chromedriver, or says why the browser tests are skipped and
    /// gives `None`.
    pub async fn start() -> Option<Driver> {
        let driver = find(
            "GOBANG_CHROMEDRIVER",
            &["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"],
        );
        let chromium = find(
            "GOBANG_CHROMIUM",
            &["/usr/bin/chromium", "/usr/bin/chromium-browser"],
        );
        let (Some(driver), Some(chromium)) = (driver, chromium) else {
            if std::env::var("GOBANG_REQUIRE_BROWSER").is_ok_and(|v| v == "1") {
                panic!("GOBANG_REQUIRE_BROWSER=1 but Chromium or chromedriver is missing");
            }
            eprintln!(
                "skipping browser test: no Chromium here (apt-get install -y chromium chromium-driver, or run .ci/run)"
            );
            return None;
        };
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let process = Command::new(&driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{} does not start: {e}", driver.display()));
        let url = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        let http = reqwest::Client::new();
        loop {
            if let Ok(r) = http.get(format!("{url}/status")).send().await
                && r.status().is_success()
            {
                break;
            }
            assert!(started.elapsed() < PATIENCE, "chromedriver did not answer");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Some(Driver {
            process,
            url,
            chromium,
        })
    }

    /// A new browser, with its own storage: a desktop window.
    pub async fn desktop(&self) -> Page {
        self.session(json!({"args": self.args(1280, 900)})).await
    }

    /// A phone: a narrow touch screen.
    pub async fn phone(&self) -> Page {
        self.session(json!({
            "args": self.args(390, 844),
            "mobileEmulation": {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2.0, "touch": true}},
        }))
        .await
    }

    fn args(&self, width: u32, height: u32) -> Vec<String> {
        vec![
            "--headless=new".into(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-dev-shm-usage".into(),
            "--lang=en-US".into(),
            format!("--window-size={width},{height}"),
        ]
    }

    async fn session(&self, mut options: Value) -> Page {
        options["binary"] = json!(self.chromium.display().to_string());
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("browserName".into(), json!("chrome"));
        capabilities.insert("goog:chromeOptions".into(), options);
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(capabilities)
            .connect(&self.url)
            .await
            .expect("a browser session");
        Page { client }
    }
}

/// One browser: the page and what a person does on it.
pub struct Page {
    pub client: Client,
}

impl Page {
    pub async fn goto(&self, url: &str) {
        self.client.goto(url).await.expect("the page loads");
    }

    /// The element, once it is on the page.
    pub async fn element(&self, css: &str) -> Element {
        self.client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css} never appeared: {e}"))
    }

    pub async fn click(&self, css: &str) {
        self.wait_until(&format!(
            "const e = document.querySelector({css:?}); return !!e && !e.disabled"
        ))
        .await;
        // The page redraws on every live update: an element found a moment
        // ago may have been replaced; find it again.
        for attempt in 0.. {
            match self.element(css).await.click().await {
                Ok(()) => return,
                Err(e) if attempt < 10 && e.to_string().contains("stale") => {}
                Err(e) => panic!("{css} cannot be clicked: {e}"),
            }
        }
    }

    /// Clicks a point of the board, by its name.
    pub async fn play(&self, point: &str) {
        self.wait_until(
            "const g = document.querySelector('.game'); return !!g && g.dataset.busy === ''",
        )
        .await;
        self.click(&format!("[data-point={point:?}]")).await;
    }

    pub async fn text(&self, css: &str) -> String {
        // As for a click: a redraw may replace the element between finding
        // it and reading it.
        for attempt in 0.. {
            match self.element(css).await.text().await {
                Ok(text) => return text,
                Err(e) if attempt < 10 && e.to_string().contains("stale") => {}
                Err(e) => panic!("{css}'s text cannot be read: {e}"),
            }
        }
        unreachable!("the loop returns or panics")
    }

    pub async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    /// Waits until a script (a function body) returns true.
    pub async fn wait_until(&self, script: &str) {
        let started = Instant::now();
        loop {
            if self.js(script).await == json!(true) {
                return;
            }
            if started.elapsed() > PATIENCE {
                let status = self
                    .js("const s = document.getElementById('status'); return s && s.textContent")
                    .await;
                let toast = self
                    .js("const t = document.getElementById('toast'); return t && t.textContent")
                    .await;
                panic!(
                    "still false after {PATIENCE:?}: {script}\n(status: {status}, toast: {toast})"
                );
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits for a stone on the board.
    pub async fn stone(&self, point: &str) {
        self.wait_until(&format!(
            "return !!document.querySelector('[data-stone={point:?}]')"
        ))
        .await;
    }

    /// Waits until a point is empty.
    pub async fn no_stone(&self, point: &str) {
        self.wait_until(&format!(
            "return !document.querySelector('[data-stone={point:?}]')"
        ))
        .await;
    }

    /// Waits until the game's state is at least this version and no request
    /// is under way.
    pub async fn settled(&self) {
        self.wait_until(
            "const g = document.querySelector('.game'); return !!g && g.dataset.busy === ''",
        )
        .await;
    }

    /// A picture of the page, saved under `target/screenshots/` (or
    /// `$GOBANG_SCREENSHOT_DIR`: `docs/screenshots` renews the README's).
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let png = self.client.screenshot().await.expect("a screenshot");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(
            std::env::var("GOBANG_SCREENSHOT_DIR").unwrap_or_else(|_| "target/screenshots".into()),
        );
        std::fs::create_dir_all(&dir).expect("the screenshot folder");
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).expect("the screenshot is written");
        path
    }

    pub async fn close(self) {
        let _ = self.client.close().await;
    }
}
