//! Players: names, secret tokens (stored only as hashes), scores, the
//! leaderboard, and telling who is calling.

use sha2::{Digest, Sha256};

use super::cursor::{self, hex};
use super::error::{Result, ServiceError};
use super::{Service, random_id};
use crate::engine::Level;
use crate::store::{self, NewPlayer, PlayerRow};

/// A player's display name: 1–40 characters, no control characters, trimmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerName(String);

impl PlayerName {
    pub fn parse(raw: &str) -> Result<PlayerName> {
        let name = raw.trim();
        if name.is_empty() {
            return Err(ServiceError::Validation("name must not be empty".into()));
        }
        if name.chars().count() > 40 {
            return Err(ServiceError::Validation(
                "name must be at most 40 characters".into(),
            ));
        }
        if name.chars().any(char::is_control) {
            return Err(ServiceError::Validation(
                "name must not contain control characters".into(),
            ));
        }
        Ok(PlayerName(name.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A secret bearer token, shown to its player once.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    fn generate() -> Token {
        let bytes: [u8; 24] = rand::random();
        Token(format!("gbt_{}", hex(&bytes)))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(…)")
    }
}

fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// The computer player standing for `level`.
pub fn computer_id(level: Level) -> String {
    format!("ai-{level}")
}

/// A player with the token they were just given.
#[derive(Debug)]
pub struct NewlyCreated {
    pub player: PlayerRow,
    pub token: Token,
}

/// Two players' finished games against each other, from one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadToHead {
    pub opponent_id: String,
    pub games: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

impl Service {
    pub async fn create_player(&self, name: &PlayerName) -> Result<NewlyCreated> {
        let name = name.clone();
        self.store
            .write(move |tx| Box::pin(async move { create_player_in(tx, &name).await }))
            .await
    }

    pub async fn player(&self, id: &str) -> Result<PlayerRow> {
        let mut conn = self.store.read().await?;
        store::player_by_id(&mut conn, id)
            .await?
            .ok_or_else(|| ServiceError::NotFound {
                what: "player",
                id: id.to_string(),
            })
    }

    /// Finished games between players `id` and `opponent`, from `id`'s
    /// side.
    pub async fn head_to_head(&self, id: &str, opponent: &str) -> Result<HeadToHead> {
        self.player(opponent).await?;
        let mut conn = self.store.read().await?;
        let (games, wins, losses, draws) = store::head_to_head(&mut conn, id, opponent).await?;
        Ok(HeadToHead {
            opponent_id: opponent.to_string(),
            games,
            wins,
            losses,
            draws,
        })
    }

    /// Gives `player` a new name (names need not be unique: the id is the
    /// identity); the player as now stored.
    pub async fn rename_player(&self, player: &PlayerRow, name: &PlayerName) -> Result<PlayerRow> {
        if player.kind != "human" {
            return Err(ServiceError::Validation(
                "only a person's name can be changed".into(),
            ));
        }
        let (id, new_name) = (player.id.clone(), name.as_str().to_string());
        let renamed = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    if !store::rename_player(tx, &id, &new_name).await? {
                        return Ok(None);
                    }
                    Ok::<_, ServiceError>(store::player_by_id(tx, &id).await?)
                })
            })
            .await?;
        self.caches.forget_player(&player.id);
        renamed.ok_or_else(|| ServiceError::NotFound {
            what: "player",
            id: player.id.clone(),
        })
    }

    /// The player a bearer token belongs to.
    /// Who they are, that is: their counts may be a minute old (read them
    /// with [`Service::player`]).
    pub async fn authenticate(&self, token: &str) -> Result<PlayerRow> {
        let hash = token_hash(token);
        if let Some(player) = self.caches.player(&hash) {
            return Ok(player);
        }
        let mut conn = self.store.read().await?;
        let player = store::player_by_token_hash(&mut conn, &hash)
            .await?
            .ok_or(ServiceError::BadToken)?;
        self.caches.keep_player(hash, &player);
        Ok(player)
    }

    /// One page of the leaderboard and the cursor of the next, if any.
    pub async fn leaderboard(
        &self,
        limit: i64,
        cursor: Option<&str>,
    ) -> Result<(Vec<PlayerRow>, Option<String>)> {
        let after = cursor.map(cursor::decode).transpose()?;
        let mut conn = self.store.read().await?;
        let mut rows = store::leaderboard(
            &mut conn,
            after.as_ref().map(|(s, id)| (*s, id.as_str())),
            limit + 1,
        )
        .await?;
        let next = if rows.len() as i64 > limit {
            rows.truncate(limit as usize);
            rows.last().map(|last| cursor::encode(last.score, &last.id))
        } else {
            None
        };
        Ok((rows, next))
    }

    /// Makes sure every computer level has its player row.
    pub(super) async fn ensure_computer_players(&self) -> Result<()> {
        self.store
            .write(|tx| {
                Box::pin(async move {
                    for level in Level::ALL {
                        let name = format!("Computer ({level})");
                        store::ensure_computer(
                            tx,
                            &computer_id(level),
                            &name,
                            level.as_str(),
                            super::now(),
                        )
                        .await?;
                    }
                    Ok::<_, ServiceError>(())
                })
            })
            .await
    }
}

/// Creates a player inside a write transaction (also used for guests).
pub(super) async fn create_player_in(
    tx: &mut store::Conn,
    name: &PlayerName,
) -> Result<NewlyCreated> {
    let token = Token::generate();
    let id = random_id("p_");
    let now = super::now();
    store::insert_player(
        tx,
        NewPlayer {
            id: &id,
            name: name.as_str(),
            token_hash: &token_hash(token.expose()),
            created_at: now,
        },
    )
    .await?;
    let player = store::player_by_id(tx, &id)
        .await?
        .ok_or_else(|| ServiceError::Internal("a player just created is missing".into()))?;
    Ok(NewlyCreated { player, token })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(PlayerName::parse("  Ada ").unwrap().as_str(), "Ada");
        assert!(PlayerName::parse("   ").is_err());
        assert!(PlayerName::parse(&"x".repeat(41)).is_err());
        assert!(PlayerName::parse("a\u{7}b").is_err());
    }

    #[test]
    fn tokens_never_show_in_debug_output() {
        let token = Token::generate();
        assert!(!format!("{token:?}").contains(token.expose()));
        assert_eq!(token_hash(token.expose()).len(), 64);
    }
}
