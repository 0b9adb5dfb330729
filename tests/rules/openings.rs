//! Opening rules played through their phases, and the 26 named openings in
//! every orientation against the published table.

use gobang::rules::{
    Color, Decision, ForbiddenPolicy, NamedOpening, OPENINGS, Opening, OpeningError, OpeningRule,
    Phase, Point, Position, Symmetry, Variant, parse_point,
};
use serde::Deserialize;

#[derive(Deserialize)]
struct Table {
    openings: Vec<Named>,
}

#[derive(Deserialize)]
struct Named {
    id: String,
    name: String,
    kanji: String,
    #[serde(rename = "type")]
    kind: String,
    gomocup_xy: Vec<[u8; 2]>,
}

fn p(name: &str) -> Point {
    parse_point(name, 15, 15).unwrap()
}

fn renju() -> Position {
    Position::new(Variant::renju(ForbiddenPolicy::Reject))
}

#[test]
fn the_26_openings_are_named_in_all_8_orientations_as_the_table_says() {
    let table: Table =
        serde_json::from_str(include_str!("../data/renju_26_openings.json")).unwrap();
    assert_eq!(table.openings.len(), 26);
    for (named, ours) in table.openings.iter().zip(OPENINGS.iter()) {
        assert_eq!(
            (named.id.as_str(), named.name.as_str(), named.kanji.as_str()),
            (ours.id, ours.name, ours.kanji)
        );
        assert_eq!(named.kind, ours.kind.as_str());
        let stones: Vec<Point> = named
            .gomocup_xy
            .iter()
            .map(|&[x, y]| Point::new(x, y))
            .collect();
        for s in Symmetry::ALL {
            let moved: Vec<Point> = stones.iter().map(|&q| s.apply(q, 15)).collect();
            let found = NamedOpening::of(&moved, 15).unwrap();
            assert_eq!(found.id, named.id, "{moved:?}");
        }
    }
    // Not an opening: the third stone outside the central 5×5.
    assert_eq!(NamedOpening::of(&[p("h8"), p("h9"), p("h11")], 15), None);
}

#[test]
fn rif_goes_place_swap_move_offer_choose_then_free_play() {
    let mut game = renju();
    let mut opening = Opening::new(OpeningRule::Rif);
    // Stone 1 at the centre, 2 in the 3×3, 3 in the 5×5: all by black's seat.
    assert!(matches!(
        opening.check_stone(&game, p("h9")),
        Err(OpeningError::OutsideZone { .. })
    ));
    game.play(p("h8")).unwrap();
    assert!(matches!(
        opening.check_stone(&game, p("h10")),
        Err(OpeningError::OutsideZone { .. })
    ));
    game.play(p("h9")).unwrap();
    assert_eq!(opening.turn(&game).actor, Color::Black, "white's stone too");
    assert!(opening.check_stone(&game, p("h11")).is_err());
    game.play(p("j10")).unwrap();
    assert_eq!(opening.name(&game).unwrap().name, "Sosei");

    let turn = opening.turn(&game);
    assert_eq!((turn.phase, turn.actor), (Phase::Swap, Color::White));
    assert!(matches!(
        opening.check_stone(&game, p("a1")),
        Err(OpeningError::DecisionRequired { .. })
    ));
    opening
        .check_decision(&game, &Decision::Swap(true))
        .unwrap();
    opening.record(3, Decision::Swap(true));
    assert!(opening.swapped());
    assert_eq!(opening.turn(&game).phase, Phase::Move);
    opening.check_stone(&game, p("a1")).unwrap();
    game.play(p("g9")).unwrap();

    let turn = opening.turn(&game);
    assert_eq!(
        (turn.phase, turn.actor),
        (Phase::Offer { count: 2 }, Color::Black)
    );
    // h8 h9 j10 g9: no symmetry keeps these four, so any two points differ.
    let offer = Decision::Offer(vec![p("j8"), p("g7")]);
    opening.check_decision(&game, &offer).unwrap();
    opening.record(4, offer);
    let turn = opening.turn(&game);
    assert_eq!((turn.phase, turn.actor), (Phase::Choose, Color::White));
    assert!(matches!(
        opening.check_stone(&game, p("k11")),
        Err(OpeningError::NotOffered { .. })
    ));
    opening.check_stone(&game, p("g7")).unwrap();
    game.play(p("g7")).unwrap();
    assert_eq!(opening.turn(&game).phase, Phase::Done);
    assert_eq!(opening.end_ply(), 5);
    // Undo through the opening: the offer comes back off the log.
    game.undo();
    assert_eq!(opening.turn(&game).phase, Phase::Choose);
    assert!(opening.take_back(4).is_some());
    assert_eq!(opening.turn(&game).phase, Phase::Offer { count: 2 });
}

#[test]
fn fifth_move_offers_that_a_symmetry_of_the_position_maps_together_are_refused() {
    // h8, h9, h10 and h7 stand on one column: the left-right mirror keeps
    // the position, so g8 and i8 are one move.
    let mut game = renju();
    for name in ["h8", "h9", "h10", "h7"] {
        game.play(p(name)).unwrap();
    }
    let mut opening = Opening::new(OpeningRule::Rif);
    opening.record(3, Decision::Swap(false));
    assert_eq!(opening.turn(&game).phase, Phase::Offer { count: 2 });
    let refused = opening.check_decision(&game, &Decision::Offer(vec![p("g8"), p("i8")]));
    assert!(
        matches!(refused, Err(OpeningError::SymmetricOffers { .. })),
        "{refused:?}"
    );
    assert!(matches!(
        opening.check_decision(&game, &Decision::Offer(vec![p("g8"), p("g8")])),
        Err(OpeningError::SameOffer { .. })
    ));
    assert!(matches!(
        opening.check_decision(&game, &Decision::Offer(vec![p("g8")])),
        Err(OpeningError::OfferCount { .. })
    ));
    opening
        .check_decision(&game, &Decision::Offer(vec![p("g8"), p("j9")]))
        .unwrap();
}

#[test]
fn swap2_offers_three_choices_and_the_first_player_chooses_after_two_more() {
    let mut game = Position::new(Variant::freestyle(15).unwrap());
    let mut opening = Opening::new(OpeningRule::Swap2);
    for name in ["c3", "m13", "d4"] {
        assert_eq!(opening.turn(&game).actor, Color::Black);
        opening.check_stone(&game, p(name)).unwrap();
        game.play(p(name)).unwrap();
    }
    let turn = opening.turn(&game);
    assert_eq!((turn.phase, turn.actor), (Phase::SwapOrPlace, Color::White));
    opening.check_decision(&game, &Decision::PlaceTwo).unwrap();
    opening.record(3, Decision::PlaceTwo);
    assert_eq!(
        opening.turn(&game),
        gobang::rules::Turn {
            phase: Phase::Place { left: 2 },
            actor: Color::White
        }
    );
    game.play(p("e5")).unwrap();
    game.play(p("a1")).unwrap();
    let turn = opening.turn(&game);
    assert_eq!((turn.phase, turn.actor), (Phase::Swap, Color::Black));
    opening.record(5, Decision::Swap(false));
    assert_eq!(opening.turn(&game).phase, Phase::Done);
    assert_eq!(opening.end_ply(), 5);
    assert_eq!(opening.log().to_string(), "3p;5s0");
}

#[test]
fn yamaguchi_declares_with_the_third_stone_and_offers_that_many() {
    let mut game = renju();
    let mut opening = Opening::new(OpeningRule::Yamaguchi);
    for name in ["h8", "i9", "j10"] {
        game.play(p(name)).unwrap();
    }
    assert_eq!(opening.turn(&game).phase, Phase::Declare);
    assert!(matches!(
        opening.check_decision(&game, &Decision::Swap(true)),
        Err(OpeningError::NotNow { .. })
    ));
    assert!(
        opening
            .check_decision(&game, &Decision::Declare(0))
            .is_err()
    );
    opening.record(3, Decision::Declare(3));
    assert_eq!(opening.turn(&game).phase, Phase::Swap);
    opening.record(3, Decision::Swap(false));
    game.play(p("k8")).unwrap();
    assert_eq!(opening.turn(&game).phase, Phase::Offer { count: 3 });
}

#[test]
fn the_free_rule_puts_renjus_first_stone_at_the_centre_only() {
    let game = renju();
    let free = Opening::new(OpeningRule::Free);
    assert!(free.check_stone(&game, p("a1")).is_err());
    free.check_stone(&game, p("h8")).unwrap();
    let gomoku = Position::new(Variant::freestyle(15).unwrap());
    free.check_stone(&gomoku, p("a1")).unwrap();
}

#[test]
fn opening_rules_fit_only_the_games_they_are_for() {
    assert!(
        OpeningRule::Rif
            .check_fits(&Variant::freestyle(15).unwrap())
            .is_ok()
    );
    assert!(
        OpeningRule::Rif
            .check_fits(&Variant::freestyle(14).unwrap())
            .is_err()
    );
    assert!(
        OpeningRule::Swap2
            .check_fits(&Variant::tictactoe())
            .is_err()
    );
    assert!(OpeningRule::Free.check_fits(&Variant::tictactoe()).is_ok());
    assert_eq!("RIF".parse::<OpeningRule>().unwrap(), OpeningRule::Rif);
    assert!("pro".parse::<OpeningRule>().is_err());
}

#[test]
fn on_a_position_every_symmetry_keeps_a_point_and_its_eight_images_are_one() {
    let mut game = renju();
    game.play(p("h8")).unwrap();
    let start = p("j11");
    for s in Symmetry::ALL {
        let image = s.apply(start, 15);
        assert!(
            gobang::rules::equivalent(game.board(), start, image),
            "{image}"
        );
    }
    assert!(!gobang::rules::equivalent(game.board(), start, p("j10")));
}
