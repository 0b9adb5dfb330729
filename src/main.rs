//! The `gobang` command: `serve` runs the server, `openapi` prints the spec,
//! `brain` speaks the Gomocup protocol, `arena` plays levels and engines
//! against each other.

use std::time::Duration;

use clap::{Parser, Subcommand};
use gobang::api::RateLimitConfig;
use gobang::service::{ComputerConfig, OnlineConfig};
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
    /// Play as a Gomocup engine on stdin/stdout.
    Brain {
        /// The computer level that plays.
        #[arg(long, default_value = "expert")]
        level: String,
        /// Threads a search uses (Lazy SMP; `INFO thread_num` from the
        /// manager overrides it), at most the machine's processors.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Play two contenders against each other and report the score and Elo.
    Arena(ArenaArgs),
    /// Fit the evaluation's weights to the outcomes of the expert's games
    /// against itself, and print them.
    Tune(TuneArgs),
    /// Write an opening book: the expert's long search of every position
    /// within a few moves of the 26 standard openings (15×15).
    Book(BookArgs),
}

#[derive(clap::Args)]
struct BookArgs {
    /// The rule set, by its API name (freestyle or renju have books).
    #[arg(long, default_value = "freestyle")]
    rules: String,
    /// Moves after each opening's three stones the book reaches.
    #[arg(long, default_value_t = 4)]
    plies: usize,
    /// Replies followed from each position (the search's best few).
    #[arg(long, default_value_t = 2)]
    branch: usize,
    /// The side the book is for (black or white): where it is to move, only
    /// its chosen move is followed; its opponent's best `--branch` are.
    #[arg(long)]
    side: Option<String>,
    /// An earlier book whose positions are taken as searched (not searched
    /// again) and followed deeper; its entries are written out with the new.
    #[arg(long)]
    extend: Option<std::path::PathBuf>,
    /// A match's record (`gobang arena --record`) for its first contender
    /// to learn from: where each game left the book, the first position it
    /// reached with that contender to move is searched too. May be given
    /// more than once.
    #[arg(long)]
    learn: Vec<std::path::PathBuf>,
    /// A match's record (`gobang arena --record`) whose games' results
    /// choose the book's moves where the search could not tell them apart:
    /// a position's move is one whose games went clearly better (whichever
    /// contender played it, against what that contender scores with that
    /// colour in these games) that the search scores within
    /// --results-margin of its own choice (searched for --time-ms if it
    /// was not among the candidates). May be given more than once.
    #[arg(long)]
    results: Vec<std::path::PathBuf>,
    /// How far below the search's choice (in its score) a candidate the
    /// results choose may be.
    #[arg(long, default_value_t = 400)]
    results_margin: i64,
    /// Thinking time for each position, in milliseconds.
    #[arg(long, default_value_t = 3000)]
    time_ms: u64,
    /// Positions searched at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

#[derive(clap::Args)]
struct TuneArgs {
    /// The rule set, by its API name (the fitted weights serve renju, or
    /// every rule set without forbidden points).
    #[arg(long, default_value = "freestyle")]
    rules: String,
    /// Games the expert plays against itself.
    #[arg(long, default_value_t = 400)]
    games: usize,
    /// Nodes the expert searches for each move (reproducible, unlike time).
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Nodes for each of black's moves, if not --nodes: games where one
    /// side searches more are those of an expert against a stronger (or
    /// weaker) opponent, and so are their positions.
    #[arg(long)]
    black_nodes: Option<u64>,
    /// Random moves after each opening, so that no two games are alike.
    #[arg(long, default_value_t = 4)]
    random_moves: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the positions played to this file (one sample a line), to
    /// fit them again without playing.
    #[arg(long)]
    save: Option<std::path::PathBuf>,
    /// Fit the positions in this file (written by --save) instead of
    /// playing games.
    #[arg(long)]
    load: Option<std::path::PathBuf>,
    /// Fit the quiet positions of an arena match's record (`gobang arena
    /// --record`) instead of playing games, each judged by the evaluation
    /// the contender to move there reported (see --judge).
    #[arg(long, conflicts_with = "load")]
    from_record: Option<std::path::PathBuf>,
    /// Whose positions and evaluations --from-record takes: the match's
    /// first contender or its second.
    #[arg(long, default_value = "second")]
    judge: String,
    /// The judge's evaluation that means the side to move's log-odds of
    /// winning are 1 (Rapfi reports on a scale of 200).
    #[arg(long, default_value_t = 200.0)]
    judge_scale: f64,
    /// How much of what the fit aims at is the game's result, from 0 to 1;
    /// the rest is the search's judgment of the position (the score of
    /// the move it chose).
    #[arg(long, default_value_t = 1.0)]
    outcome: f64,
    /// Fit the values of the point classes (a point's four line patterns in
    /// any order) on top of the shape weights instead of the weights, and
    /// write them to this directory, a file for each set of weights
    /// (src/engine/eval holds those in use).
    #[arg(long)]
    classes: Option<std::path::PathBuf>,
    /// Fit the values of the threat masks (which threats each side has
    /// anywhere: four-threes, fours, double threes, threes, and whether the
    /// side to move faces an open three) on top of the shape weights and
    /// the class values instead of the weights, and write them to this
    /// directory, a file for each set of weights (src/engine/eval holds
    /// those in use).
    #[arg(long, conflicts_with = "classes")]
    threats: Option<std::path::PathBuf>,
    /// Whose class and threat values are fitted, by the colour the expert
    /// plays (renju has a set for each; other rule sets one for both).
    #[arg(long, default_value = "white")]
    player: String,
}

#[derive(clap::Args)]
struct ArenaArgs {
    /// A level (beginner, intermediate, advanced, expert) or cmd:<Gomocup engine command>.
    first: String,
    /// The opponent, in the same form.
    second: String,
    /// Games to play; each opening is played twice with colours swapped.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// The rule set, by its API name: freestyle, standard, renju, tictactoe.
    #[arg(long, default_value = "freestyle")]
    rules: String,
    /// Board size, where the rule set has a choice (default 15).
    #[arg(long)]
    size: Option<u8>,
    /// Thinking time per move, in ms.
    #[arg(long, default_value_t = 200)]
    time_ms: u64,
    /// Games played at once (each has one engine thinking at a time: fewer
    /// than the processors, for every move to keep its time).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write every game as a JSON line to this file: its opening, colours,
    /// moves, result, and each move's thinking time and what its contender
    /// said of it (an engine's MESSAGE lines).
    #[arg(long)]
    record: Option<std::path::PathBuf>,
    /// An earlier match's record (--record) from the same openings against
    /// the same opponent: the match is also compared with it game by game,
    /// each game with the base's of the same opening and colours, which
    /// sees a smaller difference than the two totals can.
    #[arg(long)]
    compare: Option<std::path::PathBuf>,
    /// The second contender's known rating (say a computer level's rating
    /// on the server, `GET /v1/players/ai-advanced`): the match then also
    /// says the first's rating on that scale.
    #[arg(long)]
    anchor: Option<f64>,
    /// free (the 26 standard openings, colours alternating), or rif,
    /// yamaguchi, swap2, swap1: the contenders make the opening themselves,
    /// each starting as the first player in turn.
    #[arg(long, default_value = "free")]
    opening_rule: String,
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
    /// How long a request waits for a free search before 503 ENGINE_BUSY, in ms.
    #[arg(long, env = "GOBANG_ENGINE_QUEUE_MS", default_value_t = 10000)]
    engine_queue_ms: u64,
    /// HTTP worker threads (default: one per core).
    #[arg(long, env = "GOBANG_WORKERS")]
    workers: Option<usize>,
    /// In online games without a clock: seconds the side to move may be
    /// idle before the opponent may claim the win.
    #[arg(long, env = "GOBANG_ABANDON_AFTER_S", default_value_t = 600)]
    abandon_after_s: u64,
    /// Rate limits: `on`, or `off` for load tests and deployments behind
    /// their own gateway.
    #[arg(long, env = "GOBANG_RATE_LIMITS", default_value = "on", value_parser = ["on", "off"])]
    rate_limits: String,
    /// Reads (GET) per token, or per address without one, per minute.
    #[arg(long, env = "GOBANG_RATE_READS_PER_MINUTE", default_value_t = RateLimitConfig::default().reads_per_minute)]
    rate_reads_per_minute: u32,
    /// Writes (every other method) per token or address per minute.
    #[arg(long, env = "GOBANG_RATE_WRITES_PER_MINUTE", default_value_t = RateLimitConfig::default().writes_per_minute)]
    rate_writes_per_minute: u32,
    /// Players made without a token (new players, guests) per address per hour.
    #[arg(long, env = "GOBANG_RATE_GUESTS_PER_HOUR", default_value_t = RateLimitConfig::default().guests_per_hour)]
    rate_guests_per_hour: u32,
    /// Milliseconds of the computer's thinking per token (or address) per
    /// minute; each search is charged the most it may think.
    #[arg(long, env = "GOBANG_RATE_THINKING_MS_PER_MINUTE", default_value_t = RateLimitConfig::default().thinking_ms_per_minute)]
    rate_thinking_ms_per_minute: u32,
    /// Event streams (SSE, WebSocket) open at once per address.
    #[arg(long, env = "GOBANG_RATE_STREAMS_PER_ADDRESS", default_value_t = RateLimitConfig::default().streams_per_address)]
    rate_streams_per_address: u32,
    /// Requests slower than this many milliseconds are logged at warn.
    #[arg(long, env = "GOBANG_SLOW_REQUEST_MS", default_value_t = 1000)]
    slow_request_ms: u64,
}

fn main() -> std::process::ExitCode {
    // Errors as their messages say them (not Rust's debug form).
    match run(Cli::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    match cli.command {
        Command::Openapi => {
            println!("{}", gobang::api::openapi_json());
            Ok(())
        }
        Command::Serve(args) => serve(args),
        Command::Brain { level, threads } => {
            let level = level.parse::<gobang::engine::Level>()?;
            let (input, output) = (std::io::stdin().lock(), std::io::stdout().lock());
            gobang::brain::run(level, threads, input, output)?;
            Ok(())
        }
        Command::Arena(args) => arena(args),
        Command::Tune(args) => tune(args),
        Command::Book(args) => book(args),
    }
}

/// The rule set named `rules` on its default board, which must be the
/// 15×15 board of the standard openings that `what` (tuning, a book) uses.
fn openings_variant(
    rules: &str,
    what: &str,
) -> Result<
    (gobang::rules::RuleSet, gobang::rules::Variant),
    Box<dyn std::error::Error + Send + Sync>,
> {
    use gobang::rules::{RuleSet, Variant, VariantSpec};
    let rule_set: RuleSet = rules.parse()?;
    let variant = Variant::from_spec(rule_set, &VariantSpec::default())?;
    if (variant.width(), variant.height()) != (15, 15) {
        return Err(format!("{what} the 15×15 openings; {rules} is not 15×15").into());
    }
    Ok((rule_set, variant))
}

/// Values fitted at each strength of regularisation, and the ones that
/// predict the held-out fifth best (`before`'s, those in use, if none
/// does); `fit` gives the held-out loss and the values for a ridge.
fn best_by_ridge<V: Clone>(what: &str, before: (f64, &V), fit: impl Fn(f64) -> (f64, V)) -> V {
    let mut best = (before.0, before.1.clone());
    for ridge in [1e-4, 3e-4, 1e-3, 3e-3] {
        let (loss, fitted) = fit(ridge);
        println!("  {what} fitted with ridge {ridge:e}: {loss:.4}");
        if loss < best.0 {
            best = (loss, fitted);
        }
    }
    best.1
}

/// Writes a file of fitted values, making its directory if need be (renju
/// black's go in a directory of their own, `as-black/`).
fn write_values(path: &std::path::Path, text: &str) -> Result<(), String> {
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(cannot)?;
    }
    std::fs::write(path, text).map_err(cannot)?;
    println!("  the best written to {}", path.display());
    Ok(())
}

fn tune(args: TuneArgs) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    use gobang::engine::eval::{ClassValues, ThreatValues, Weights};
    use gobang::rules::Color;
    use gobang::tune::{self, TuneConfig};

    let (_, variant) = openings_variant(&args.rules, "tuning plays")?;
    let player = match args.player.as_str() {
        "black" => Color::Black,
        "white" => Color::White,
        other => return Err(format!("--player is black or white, not {other:?}").into()),
    };
    if !(0.0..=1.0).contains(&args.outcome) {
        return Err(format!(
            "--outcome {} is not from 0 to 1: it is how much of the aim is the game's result",
            args.outcome
        )
        .into());
    }
    let samples = if let Some(path) = &args.from_record {
        let judge_first = match args.judge.as_str() {
            "first" => true,
            "second" => false,
            other => return Err(format!("--judge is first or second, not {other:?}").into()),
        };
        if !args.judge_scale.is_finite() || args.judge_scale <= 0.0 {
            return Err(format!(
                "--judge-scale {} is not a number above 0: it is the judge's evaluation of log-odds 1",
                args.judge_scale
            )
            .into());
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        tune::judged::samples(&text, variant, judge_first, args.judge_scale)
            .map_err(|e| format!("{}: {e}", path.display()))?
    } else if let Some(path) = &args.load {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        tune::read_samples(&text).map_err(|e| format!("{}: {e}", path.display()))?
    } else {
        let config = TuneConfig {
            variant,
            games: args.games,
            nodes: args.nodes,
            black_nodes: args.black_nodes,
            random_moves: args.random_moves,
            threads: args.threads,
            seed: args.seed,
        };
        let total = args.games;
        let samples = tune::generate(&config, &|done| eprint!("\r{done}/{total} games   "));
        eprintln!();
        samples
    };
    println!("{} quiet positions", samples.len());
    if let Some(path) = &args.save {
        let mut out = std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        );
        tune::write_samples(&samples, &mut out)?;
        std::io::Write::flush(&mut out)?;
    }
    let samples: Vec<_> = samples
        .into_iter()
        .map(|s| s.aiming_at(args.outcome))
        .collect();
    // One fit for each set of weights (renju's: black to move, white to
    // move), on four fifths of its positions; judged on the rest.
    let mut fitted = Vec::new();
    for mover in [Color::Black, Color::White] {
        let name = Weights::name(&variant, mover);
        if fitted.contains(&name) {
            continue;
        }
        fitted.push(name);
        let before = *Weights::for_mover(&variant, mover);
        // A game's positions share its outcome: the held-out fifth is ten
        // runs of a fiftieth of the positions each (a game's are listed
        // together), not every fifth position, which would test on the
        // games it trained on.
        let mine: Vec<_> = samples
            .iter()
            .filter(|s| Weights::name(&variant, s.mover) == name)
            .collect();
        let run = (mine.len() / 50).max(1);
        let (test, train): (Vec<_>, Vec<_>) = mine
            .into_iter()
            .enumerate()
            .partition(|&(n, _)| (n / run) % 5 == 0);
        let test: Vec<_> = test.into_iter().map(|(_, s)| s.clone()).collect();
        let train: Vec<_> = train.into_iter().map(|(_, s)| s.clone()).collect();
        let classes = ClassValues::for_mover(&variant, mover, player);
        let threats = ThreatValues::for_mover(&variant, mover, player);
        let before_loss = tune::loss(&before.vector(), classes, threats, &test);
        let header = || {
            println!(
                "\n{name}: {} positions; log loss on the held-out fifth {before_loss:.4} before",
                test.len() + train.len()
            )
        };
        if let Some(dir) = &args.classes {
            header();
            let best = best_by_ridge("class values", (before_loss, classes), |ridge| {
                let fitted = tune::fit_classes(&train, &before, threats, classes, ridge);
                let loss = tune::loss(&before.vector(), &fitted, threats, &test);
                (loss, fitted)
            });
            write_values(
                &dir.join(Weights::class_file(&variant, mover, player)),
                &best.to_text(),
            )?;
            continue;
        }
        if let Some(dir) = &args.threats {
            header();
            let best = best_by_ridge("threat values", (before_loss, threats), |ridge| {
                let fitted = tune::fit_threats(&train, &before, classes, threats, ridge);
                let loss = tune::loss(&before.vector(), classes, &fitted, &test);
                (loss, fitted)
            });
            write_values(
                &dir.join(Weights::threat_file(&variant, mover, player)),
                &best.to_text(),
            )?;
            continue;
        }
        let after = tune::fit(&train, &before, classes, threats);
        println!(
            "\n{name}: {} positions; log loss on the held-out fifth {before_loss:.4} before, {:.4} after",
            test.len() + train.len(),
            tune::loss(&after.vector(), classes, threats, &test),
        );
        print!("{}", tune::comparison(&before, &after));
        println!("{}", tune::as_source(name, &after));
    }
    Ok(())
}

fn book(args: BookArgs) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    use gobang::engine::book::{self, BookConfig};
    use gobang::rules::Color;
    let (rules, variant) = openings_variant(&args.rules, "a book follows")?;
    let side = match args.side.as_deref() {
        None => None,
        Some("black") => Some(Color::Black),
        Some("white") => Some(Color::White),
        Some(other) => return Err(format!("--side is black or white, not {other:?}").into()),
    };
    // The expert writing this book, named in it (and checked against the
    // book it extends).
    let engine = book::engine_fingerprint(&variant);
    let (earlier, known) = match &args.extend {
        None => (String::new(), Vec::new()),
        Some(path) => {
            let bad = |e: String| format!("--extend {}: {e}", path.display());
            let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
            let known = book::read(&text, &variant).map_err(bad)?;
            if let Some(other) = book::written_by_another(&text, &engine) {
                eprintln!(
                    "warning: --extend {}: {other}; its entries are kept as they are",
                    path.display()
                );
            }
            (text, known)
        }
    };
    let mut played = Vec::new();
    for path in &args.learn {
        let games = gobang::arena::record::read_file("--learn", path)?;
        played.extend(games.iter().map(|g| (g.points(), g.first_color())));
    }
    // The records are read before the search writes the book, so that a
    // bad path is reported at once, not after the generation.
    let mut games = Vec::new();
    for path in &args.results {
        let records = gobang::arena::record::read_file("--results", path)?;
        games.extend(records.iter().map(|g| book::ResultGame {
            moves: g.points(),
            black_score: g.black_score(),
            first: g.first_color(),
        }));
    }
    let config = BookConfig {
        variant,
        plies: args.plies,
        branch: args.branch,
        side,
        time: std::time::Duration::from_millis(args.time_ms),
        threads: args.threads,
        known,
        played,
    };
    let mut entries = book::generate(
        &config,
        &gobang::arena::standard_openings(),
        &|done, known| eprint!("\r{done}/{known} positions   "),
    );
    eprintln!();
    if !args.results.is_empty() {
        let results = book::Results::new(&variant, &games);
        let changed = results.choose(
            &variant,
            &mut entries,
            args.results_margin,
            std::time::Duration::from_millis(args.time_ms),
        );
        for change in &changed {
            eprintln!("{}", change.describe(&entries));
        }
        eprintln!(
            "{} of {} positions play another candidate by the results of {} games",
            changed.len(),
            entries.len(),
            games.len()
        );
    }
    let mut command = format!(
        "gobang book --rules {rules} --plies {} --branch {} --time-ms {}",
        args.plies, args.branch, args.time_ms
    );
    if let Some(side) = &args.side {
        command += &format!(" --side {side}");
    }
    if let Some(path) = &args.extend {
        command += &format!(" --extend {}", path.display());
    }
    for path in &args.learn {
        command += &format!(" --learn {}", path.display());
    }
    for path in &args.results {
        command += &format!(" --results {}", path.display());
    }
    if !args.results.is_empty() {
        command += &format!(" --results-margin {}", args.results_margin);
    }
    // An extended book keeps the story of how its earlier entries were made.
    for line in earlier.lines().filter(|l| l.starts_with('#')) {
        println!("{line}");
    }
    println!("# gobang opening book: {rules}, 15x15 (see src/engine/book.rs); `{command}`");
    // The expert that wrote it: a book is only right for the engine whose
    // search chose its moves (a test holds the compiled-in books to it).
    println!("{}", book::engine_line(&engine));
    for entry in &entries {
        println!("{}", book::write_entry(entry));
    }
    Ok(())
}

fn arena(args: ArenaArgs) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    use gobang::arena::{self, Contender, MatchConfig, record};
    use gobang::rules::{Color, ForbiddenPolicy, RuleSet, Variant, VariantSpec};
    use std::io::Write;

    let rules: RuleSet = args.rules.parse()?;
    let mut spec = VariantSpec {
        board_size: args.size,
        ..VariantSpec::default()
    };
    let mut variant = Variant::from_spec(rules, &spec)?;
    if variant.forbidden_policy().is_some() {
        // The referee applies the tournament rule: a forbidden move loses.
        spec.forbidden = Some(ForbiddenPolicy::Lose);
        variant = Variant::from_spec(rules, &spec)?;
    }
    let config = MatchConfig {
        first: args.first.parse::<Contender>()?,
        second: args.second.parse::<Contender>()?,
        games: args.games,
        variant,
        time_per_move: Duration::from_millis(args.time_ms),
        seed: args.seed,
        opening_rule: args.opening_rule.parse()?,
    };
    config.check()?;
    let base = match &args.compare {
        Some(path) => Some(record::read_file("--compare", path)?),
        None => None,
    };
    let processors = std::thread::available_parallelism().map_or(1, |n| n.get());
    if args.threads > 1 && args.threads >= processors {
        eprintln!(
            "note: {} games at once on {processors} processors: each has an engine thinking, \
             so an engine that has to wait for a processor may answer past its time; \
             play at most {} at once (--threads) where every move must keep its time",
            args.threads,
            (processors - 1).max(1)
        );
    }
    let total = args.games;
    let progress = |games: &[arena::GameReport]| {
        let wins = games.iter().filter(|g| g.score == 1.0).count();
        let losses = games.iter().filter(|g| g.score == 0.0).count();
        let draws = games.len() - wins - losses;
        let done = games.len() * 30 / total.max(1);
        eprint!(
            "\r[{}{}] {}/{} +{} -{} ={}   ",
            "#".repeat(done),
            ".".repeat(30 - done),
            games.len(),
            total,
            wins,
            losses,
            draws
        );
    };
    let report = arena::run(&config, args.threads, &progress);
    eprintln!();
    if let Some(path) = &args.record {
        let mut file = std::fs::File::create(path)?;
        for g in &report.games {
            writeln!(file, "{}", record::line(g))?;
        }
    }
    let (elo, low, high) = report.elo();
    println!(
        "{} vs {} · {} · {} games · {} ms/move",
        config.first,
        config.second,
        args.rules,
        report.games.len(),
        args.time_ms
    );
    println!(
        "{}: +{} -{} ={}  score {:.1}%  Elo {:+.0} (95% {:+.0} to {:+.0})",
        config.first,
        report.wins(),
        report.losses(),
        report.draws(),
        report.score() * 100.0,
        elo,
        low,
        high
    );
    let halves = [Color::Black, Color::White].map(|color| {
        let (wins, losses, draws) = report.record_as(color);
        format!("as {color} +{wins} -{losses} ={draws}")
    });
    println!("{}: {}", config.first, halves.join(" · "));
    if let Some(anchor) = args.anchor {
        println!(
            "{} ≈ {:.0} (95% {:.0} to {:.0}), where {} = {anchor:.0}",
            config.first,
            anchor + elo,
            anchor + low,
            anchor + high,
            config.second
        );
    }
    for (first, name) in [(true, &config.first), (false, &config.second)] {
        let (p50, p99, max) = report.move_times(first);
        println!(
            "move times of {name}: p50 {} ms, p99 {} ms, max {} ms",
            p50.as_millis(),
            p99.as_millis(),
            max.as_millis()
        );
    }
    if let Some(base) = base {
        let games: Vec<record::Recorded> = report.games.iter().map(Into::into).collect();
        print!("{}", record::Comparison::of(&games, &base).report());
    }
    Ok(())
}

#[actix_web::main]
async fn serve(args: ServeArgs) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    telemetry::init(args.log_format);
    let mut computer = ComputerConfig {
        default_budget: Duration::from_millis(args.engine_default_ms),
        max_budget: Duration::from_millis(args.engine_max_ms),
        queue_timeout: Duration::from_millis(args.engine_queue_ms),
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
        online: OnlineConfig {
            idle_limit: Duration::from_secs(args.abandon_after_s),
        },
        workers: args.workers,
        rate_limits: RateLimitConfig {
            enabled: args.rate_limits == "on",
            reads_per_minute: args.rate_reads_per_minute,
            writes_per_minute: args.rate_writes_per_minute,
            guests_per_hour: args.rate_guests_per_hour,
            streams_per_address: args.rate_streams_per_address,
            thinking_ms_per_minute: args.rate_thinking_ms_per_minute,
        },
        slow_request: Duration::from_millis(args.slow_request_ms),
    };
    let app = Application::build(settings.clone()).await?;
    tracing::info!(address = %settings.address, port = app.port(), database = %gobang::store::redacted(&settings.database_url), "gobang is serving");
    app.run_until_stopped().await?;
    Ok(())
}
