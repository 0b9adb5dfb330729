//! The `gobang` command: `serve` runs the server, `openapi` prints the spec.

use std::time::Duration;

use clap::{Parser, Subcommand};
use gobang::service::ComputerConfig;
use gobang::startup::{Application, Settings};
use gobang::telemetry::{self, LogFormat};

#[derive(Parser)]
#[command(
    name = "gobang",
    version,
    about = "Five-in-a-row, renju and tic-tac-toe as a service"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP server.
    Serve(ServeArgs),
    /// Print the OpenAPI document.
    Openapi,
}

#[derive(clap::Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "GOBANG_ADDRESS", default_value = "127.0.0.1")]
    address: String,
    /// Port to listen on (0 picks a free one).
    #[arg(long, env = "GOBANG_PORT", default_value_t = 8080)]
    port: u16,
    /// Database: sqlite:PATH (created if missing).
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite:gobang.db")]
    database_url: String,
    /// Log format.
    #[arg(long, env = "GOBANG_LOG_FORMAT", value_enum, default_value = "pretty")]
    log_format: LogFormat,
    /// Browser origins allowed by CORS, comma-separated (`*` for any).
    #[arg(long, env = "GOBANG_CORS_ORIGINS", value_delimiter = ',')]
    cors_origins: Vec<String>,
    /// Computer searches running at once (default: one per core).
    #[arg(long, env = "GOBANG_ENGINE_THREADS")]
    engine_threads: Option<usize>,
    /// Computer thinking time per move when a request names none, in ms.
    #[arg(long, env = "GOBANG_ENGINE_DEFAULT_MS", default_value_t = 1000)]
    engine_default_ms: u64,
    /// The most thinking time a request may ask for, in ms.
    #[arg(long, env = "GOBANG_ENGINE_MAX_MS", default_value_t = 5000)]
    engine_max_ms: u64,
    /// HTTP worker threads (default: one per core).
    #[arg(long, env = "GOBANG_WORKERS")]
    workers: Option<usize>,
}

fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    match Cli::parse().command {
        Command::Openapi => {
            println!("{}", gobang::api::openapi_json());
            Ok(())
        }
        Command::Serve(args) => serve(args),
    }
}

#[actix_web::main]
async fn serve(args: ServeArgs) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    telemetry::init(args.log_format);
    let mut computer = ComputerConfig {
        default_budget: Duration::from_millis(args.engine_default_ms),
        max_budget: Duration::from_millis(args.engine_max_ms),
        ..ComputerConfig::default()
    };
    if let Some(threads) = args.engine_threads {
        computer.max_concurrent = threads;
    }
    let settings = Settings {
        address: args.address,
        port: args.port,
        database_url: args.database_url,
        cors_origins: args.cors_origins,
        computer,
        workers: args.workers,
    };
    let app = Application::build(settings.clone()).await?;
    tracing::info!(address = %settings.address, port = app.port(), database = %settings.database_url, "gobang is serving");
    app.run_until_stopped().await?;
    Ok(())
}
