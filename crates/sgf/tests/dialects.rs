//! SGF dialects met in real files: FF[1]/FF[3] property names, `tt` passes, collections,
//! character sets, damaged files, Fox komi, setup, and how replay treats odd records.
//!
//! Sample files come from the corpus (`shared/sgf-corpus/`, see its SOURCES.md); the rest are
//! written inline.

use std::path::{Path, PathBuf};

use ingo_rules::{Color, Komi, Move, PlayErrorKind, Point, Preset, Rules};
use ingo_sgf::{
    parse, parse_bytes, parse_file, parse_file_with, parse_with, replay, replay_moves, ErrorKind,
    InsertedPass, Position, ReadOptions, Record, Repair, ReplayMode, SyntaxReason, Warning,
    MAX_DEPTH,
};

fn corpus(rel: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/sgf-corpus");
    assert!(
        dir.is_dir(),
        "the SGF corpus is missing: expected {}",
        dir.display()
    );
    dir.join(rel)
}

fn one(text: &str) -> Record {
    let mut records = parse(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(records.len(), 1);
    records.remove(0)
}

fn file(rel: &str) -> Record {
    let mut records = parse_file(corpus(rel)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(records.len(), 1, "{rel}");
    records.remove(0)
}

fn pt(sgf: &str, size: usize) -> Point {
    Point::from_sgf(sgf, size, size).expect("point")
}

fn clean(record: &Record) {
    let r = replay(record, record.rules_or(Preset::Ing), ReplayMode::Strict).expect("replay");
    assert!(r.is_clean(), "{:?}", r.illegal);
    assert_eq!(r.played, record.moves.len());
}

// ---- property names: FF[1], FF[3] ----

#[test]
fn ff1_long_property_names() {
    // katrain/xmgt97.sgf: FileFormat[1], GaMe, SiZe[9], PlayerBlack, KoMi[-1.5], Black[ff]...
    let r = file("katrain/tests/data/xmgt97.sgf");
    assert_eq!((r.width, r.height), (9, 9));
    assert_eq!(r.komi, Some(Komi(-3)));
    assert_eq!(r.info.players.black.as_deref(), Some("hi"));
    assert_eq!(r.info.players.white.as_deref(), Some("ka"));
    assert_eq!(r.moves.len(), 60);
    assert_eq!(r.moves[0].color, Color::Black);
    assert_eq!(r.moves[0].mv, Move::Play(pt("ff", 9)));
    clean(&r);
}

#[test]
fn lowercase_property_ids() {
    // katrain/panda1.sgf (IGS): CoPyright[...], no FF; a handicap game with AB.
    let r = file("katrain/tests/data/panda1.sgf");
    assert_eq!(r.info.players.black.as_deref(), Some("player2"));
    assert_eq!(r.handicap, Some(2));
    assert_eq!(r.setup_events[0].black.len(), 2);
    assert_eq!(r.setup().expect("setup").to_move, Color::White);
    clean(&r);

    let r = one("(;GaMe[1]SiZe[9]PlayerBlack[x]CoPyright[c];Black[ee];White[gg])");
    assert_eq!(r.width, 9);
    assert_eq!(r.info.players.black.as_deref(), Some("x"));
    assert_eq!(r.moves.len(), 2);
    assert_eq!(r.moves[1].mv, Move::Play(pt("gg", 9)));
}

#[test]
fn ff3_files() {
    // sente's FF[3] Samsung Cup game, and IGS's FF[3] export with KM[6.500000].
    let r = file("sente/tests/warning sgf/LeeSedol-WangYao34615.sgf");
    assert_eq!(r.info.players.black.as_deref(), Some("Lee Sedol"));
    assert_eq!(r.moves.len(), 174);
    clean(&r);
    let r = file("glift/test/testdata/PandanetFF3Example.sgf");
    assert_eq!(r.komi, Some(Komi(13)));
    assert_eq!(r.info.ranks.black.as_deref(), Some("5d?"));
    clean(&r);
}

// ---- moves and passes ----

#[test]
fn tt_is_a_pass_up_to_19() {
    let r = one("(;SZ[19];B[tt];W[];B[aa])");
    let mvs: Vec<Move> = r.moves.iter().map(|m| m.mv).collect();
    assert_eq!(mvs, [Move::Pass, Move::Pass, Move::Play(pt("aa", 19))]);
    let r = one("(;SZ[9];B[tt])");
    assert_eq!(r.moves[0].mv, Move::Pass);
    // On 21×21, t is the 20th column: a real point.
    let r = one("(;SZ[21];B[tt])");
    assert_eq!(
        r.moves[0].mv,
        Move::Play(Point::from_sgf("tt", 21, 21).expect("on board"))
    );
    // GNU Go scoring games end W[tt];B[tt] (in their first variation).
    let r = file("gnugo/regression/games/9x9-4.sgf");
    let last: Vec<Move> = r.moves.iter().rev().take(2).map(|m| m.mv).collect();
    assert_eq!(last, [Move::Pass, Move::Pass]);
    let played = replay(&r, r.rules_or(Preset::Ing), ReplayMode::Strict).expect("replay");
    assert_eq!(played.game.consecutive_passes(), 2);
}

#[test]
fn main_line_follows_first_variations() {
    let r = one("(;SZ[9];B[aa](;W[bb];B[cc])(;W[dd]))");
    let nodes: Vec<usize> = r.moves.iter().map(|m| m.node_number).collect();
    assert_eq!(nodes, [1, 2, 3]);
    assert_eq!(r.moves[1].mv, Move::Play(pt("bb", 9)));
}

#[test]
fn two_moves_in_one_node_are_kept_in_order() {
    let r = one("(;SZ[9];B[aa]W[bb];B[cc])");
    assert_eq!(r.moves.len(), 3);
    assert_eq!(r.moves[1].color, Color::White);
    assert!(r.warnings.contains(&Warning::TwoMoves(1)));
}

#[test]
fn bad_move_values_name_the_node() {
    let err = parse("(;SZ[9];B[aa];W[a])").expect_err("an error");
    assert!(matches!(err.kind(), ErrorKind::BadValue { node: 2, property, .. } if property == "W"));
    assert_eq!(err.to_string(), "node 2: invalid W[a]");
    // Beyond 25×25 no point can be named.
    assert!(parse("(;SZ[9];B[zz])").is_err());
}

// ---- collections ----

#[test]
fn collections_of_several_games() {
    // sente/ff4_ex.sgf, the SGF specification's example: two game trees.
    let records = parse_file(corpus("sente/tests/sgf/ff4_ex.sgf")).expect("ff4_ex");
    assert_eq!(records.len(), 2);
    assert_eq!(
        records[0].info.name.as_deref(),
        Some("Gametree 1: properties")
    );
    assert_eq!(records[1].info.players.black.as_deref(), Some("B. Lack"));
    assert_eq!(records[1].info.result.as_deref(), Some("W+3.5"));

    let records = parse("(;SZ[9];B[aa])\n(;SZ[13];W[bb];B[cc])").expect("two games");
    assert_eq!(records.len(), 2);
    assert_eq!((records[1].width, records[1].moves.len()), (13, 2));

    // An error names the game of the collection.
    let err = parse("(;SZ[9];B[aa])(;SZ[99];B[aa])").expect_err("an error");
    assert_eq!(err.game(), Some(2));
    assert!(err
        .to_string()
        .starts_with("game 2: unsupported board size"));
}

// ---- character sets ----

#[test]
fn utf8_bom_and_utf16le_bom() {
    let a = file("sabaki-sgf/tests/sgf/utf8bom.sgf");
    let b = file("sabaki-sgf/tests/sgf/utf16le.sgf");
    for r in [&a, &b] {
        assert_eq!(r.info.players.black.as_deref(), Some("Kitani Minoru"));
        assert_eq!(r.info.players.white.as_deref(), Some("Go Seigen"));
        assert!(r
            .warnings
            .iter()
            .all(|w| matches!(w, Warning::SetupAndMove(_))));
    }
    assert_eq!(a.moves, b.moves);
    assert_eq!(a.moves.len(), 164);
}

#[test]
fn utf16be_with_bom() {
    let text = "(;CA[UTF-16]SZ[9]PB[黑棋];B[ee])";
    let mut bytes = vec![0xFE, 0xFF];
    for u in text.encode_utf16() {
        bytes.extend(u.to_be_bytes());
    }
    let r = parse_bytes(&bytes, &ReadOptions::default()).expect("utf-16be");
    assert_eq!(r[0].info.players.black.as_deref(), Some("黑棋"));
    assert_eq!(r[0].moves.len(), 1);
}

#[test]
fn declared_legacy_charsets() {
    for (rel, black) in [
        ("sabaki-sgf/tests/sgf/chinese.sgf", "古力"), // CA[GB2312]
        ("sabaki-sgf/tests/sgf/japanese.sgf", "井山 裕太"), // CA[Shift_JIS]
        ("sabaki-sgf/tests/sgf/korean.sgf", "이세돌"), // CA[EUC-KR]
    ] {
        let r = file(rel);
        assert_eq!(r.info.players.black.as_deref(), Some(black), "{rel}");
        assert!(r.warnings.is_empty(), "{rel}: {:?}", r.warnings);
    }
    // Big5 and ISO-8859-1 (as GNU Go spells it), from bytes.
    let mut big5 = b"(;CA[Big5]PB[".to_vec();
    big5.extend([0xB6, 0xC2]); // 黑
    big5.extend(b"];B[aa])");
    let r = parse_bytes(&big5, &ReadOptions::default()).expect("big5");
    assert_eq!(r[0].info.players.black.as_deref(), Some("黑"));
    let latin1 = b"(;CA[ISO8859_1]PW[Jos\xe9];B[aa])";
    let r = parse_bytes(latin1, &ReadOptions::default()).expect("latin-1");
    assert_eq!(r[0].info.players.white.as_deref(), Some("José"));
    assert!(r[0].warnings.is_empty());
}

#[test]
fn declared_charset_but_utf8_bytes() {
    // japanese_bad.sgf: CA[MS_KANJI], yet the bytes are UTF-8.
    let r = file("sabaki-sgf/tests/sgf/japanese_bad.sgf");
    assert!(r.warnings.contains(&Warning::CharsetMismatch {
        declared: "MS_KANJI".into()
    }));
    assert_eq!(r.moves.len(), 2);
}

#[test]
fn undeclared_legacy_bytes() {
    // MultiGo's GBK file with no CA: read as ISO-8859-1 with a warning, or as GBK when asked.
    let rel = "sabaki-sgf/tests/sgf/no-ca.sgf";
    let r = file(rel);
    assert!(matches!(r.warnings[0], Warning::NoCharset { .. }));
    assert_eq!(r.moves.len(), 7);
    let gbk = ReadOptions {
        charset: Some("GBK".into()),
        ..ReadOptions::default()
    };
    let r = &parse_file_with(corpus(rel), &gbk).expect("gbk")[0];
    let comment = r
        .sgf_root()
        .properties
        .iter()
        .find_map(|p| match p {
            ingo_sgf::sgf_parse::go::Prop::C(t) => Some(t.text.clone()),
            _ => None,
        })
        .expect("root comment");
    assert!(comment.starts_with("【第三型】"), "{comment}");

    // A Nihon Ki-in export: Shift_JIS, no CA, no ';' before the root. Read as Shift_JIS, the
    // "ソ" whose second byte is '\' no longer escapes the closing bracket.
    let sjis = ReadOptions {
        charset: Some("Shift_JIS".into()),
        ..ReadOptions::default()
    };
    let r = &parse_file_with(
        corpus("sabaki-sgf/tests/sgf/encoding/nihon-kiin.sgf"),
        &sjis,
    )
    .expect("nihon-kiin")[0];
    assert_eq!(r.info.players.black.as_deref(), Some("申眞ソ"));
    assert_eq!(r.info.ranks.black.as_deref(), Some("九段"));
    assert_eq!(r.moves.len(), 8);
    assert!(r.warnings.iter().any(|w| matches!(
        w,
        Warning::Repaired {
            repair: Repair::InsertedNode,
            ..
        }
    )));

    // A French TurboGo file with no CA: ISO-8859-1 is right.
    let r = file("gnugo/regression/games/tg-gg.sgf");
    let comment = r
        .sgf_root()
        .properties
        .iter()
        .find_map(|p| match p {
            ingo_sgf::sgf_parse::go::Prop::C(t) => Some(t.text.clone()),
            _ => None,
        })
        .expect("root comment");
    assert!(comment.contains("Fichier SGF créé"), "{comment}");
}

#[test]
fn invalid_utf8_under_ca_utf8() {
    // A Fox file that cut a name in the middle of a character.
    let r = file(
        "yenw-computer-go-dataset/AI/Tiger/2016.08.19 dongfangmz vs 虎虎有生气 (43786347).SGF",
    );
    assert!(r.warnings.contains(&Warning::Replaced { charset: "UTF-8" }));
    assert_eq!(r.info.players.white.as_deref(), Some("虎虎有生气"));
    clean(&r);
}

// ---- damaged files ----

#[test]
fn truncated_file() {
    // littlego's 'Fuego vs. Fuego.sgf' lacks its closing ')'.
    let rel = "littlego/sgf/19x19/Fuego vs. Fuego.sgf";
    let r = file(rel);
    assert_eq!(r.moves.len(), 352);
    assert!(r.warnings.iter().any(|w| matches!(
        w,
        Warning::Repaired {
            repair: Repair::AddedClose(1),
            ..
        }
    )));
    clean(&r);
    let err = parse_file_with(corpus(rel), &ReadOptions::strict()).expect_err("an error");
    assert!(matches!(
        err.kind(),
        ErrorKind::Syntax {
            position: Some(Position {
                line: 39,
                column: 19
            }),
            reason: SyntaxReason::UnexpectedEnd
        }
    ));
    let msg = err.to_string();
    assert!(
        msg.contains("Fuego vs. Fuego.sgf: line 39, column 19: unexpected end"),
        "{msg}"
    );
}

#[test]
fn truncated_inside_a_value() {
    let r = one("(;SZ[9];B[aa];W[bb];B[c");
    assert_eq!(r.moves.len(), 2);
    let err =
        parse_with("(;SZ[9];B[aa];\n;W[bb];B[c", &ReadOptions::strict()).expect_err("an error");
    assert_eq!(
        err.to_string(),
        "line 2, column 9: property value not closed (missing \"]\")"
    );
}

#[test]
fn stray_bracket_in_a_kgs_rank() {
    let r = one("(;PB[x]BR[3d]]\n;B[aa];W[bb])");
    assert_eq!(r.info.ranks.black.as_deref(), Some("3d"));
    assert_eq!(r.moves.len(), 2);
    assert!(r.warnings.iter().any(|w| matches!(
        w,
        Warning::Repaired {
            position: Position {
                line: 1,
                column: 14
            },
            repair: Repair::RemovedJunk(_)
        }
    )));
}

#[test]
fn text_around_the_game_tree() {
    // gnugo's ego2.sgf starts with a paragraph of prose.
    let r = file("gnugo/regression/games/ego2.sgf");
    assert!(r.moves.len() > 100);
    clean(&r);
    assert!(parse_file_with(
        corpus("gnugo/regression/games/ego2.sgf"),
        &ReadOptions::strict()
    )
    .is_err());
    let r = one("Here is the game:\n(;SZ[9];B[aa])\n\x1a");
    assert_eq!(r.moves.len(), 1);
}

#[test]
fn strict_errors_have_positions() {
    let strict = ReadOptions::strict();
    let cases = [
        ("(;B[aa]))", 1, 9, SyntaxReason::StrayText),
        ("(;B[aa]\n(B[bb]))", 2, 2, SyntaxReason::PropertyOutsideNode),
        ("(;GM[1]\n;B[aa]", 2, 7, SyntaxReason::UnexpectedEnd),
        ("(;B[aa]\n  W€[bb])", 2, 3, SyntaxReason::StrayText),
        // sgf-parse alone would fold "];B" into one identifier and the move into the root.
        ("(;BR[3d]];B[aa])", 1, 9, SyntaxReason::StrayText),
        ("(;GM[x];B[aa])", 1, 3, SyntaxReason::BadGameType),
        ("(;B[aa]((;W[bb])))", 1, 9, SyntaxReason::TreeWithoutNode),
    ];
    for (text, line, column, reason) in cases {
        let err = parse_with(text, &strict).expect_err("an error");
        match err.kind() {
            ErrorKind::Syntax {
                position: Some(p),
                reason: r,
            } => assert_eq!((p.line, p.column, *r), (line, column, reason), "{text:?}"),
            other => panic!("{text:?}: {other:?}"),
        }
    }
    assert!(matches!(
        parse_with("no game here", &strict)
            .expect_err("an error")
            .kind(),
        ErrorKind::Syntax {
            reason: SyntaxReason::NoGameTree,
            ..
        }
    ));
    assert!(matches!(
        parse("no game here").expect_err("an error").kind(),
        ErrorKind::Syntax {
            reason: SyntaxReason::NoGameTree,
            ..
        }
    ));
}

#[test]
fn too_deep() {
    let mut text = String::from("(;SZ[9]");
    for i in 0..MAX_DEPTH + 1 {
        text.push_str(if i % 2 == 0 { ";B[]" } else { ";W[]" });
    }
    text.push(')');
    for options in [ReadOptions::default(), ReadOptions::strict()] {
        let err = parse_with(&text, &options).expect_err("an error");
        assert!(matches!(err.kind(), ErrorKind::TooDeep { .. }), "{err}");
    }
}

#[test]
fn other_games_and_sizes_are_errors() {
    assert!(
        matches!(parse("(;GM[2];B[aa])").expect_err("an error").kind(), ErrorKind::NotGo(gm) if gm == "2")
    );
    for size in ["SZ[26]", "SZ[0]", "SZ[19:30]", "SZ[big]"] {
        let err = parse(&format!("(;{size};B[aa])")).expect_err("an error");
        assert!(
            matches!(err.kind(), ErrorKind::BoardSize(_)),
            "{size}: {err}"
        );
    }
    let r = one("(;SZ[19:13];B[aa])");
    assert_eq!((r.width, r.height), (19, 13));
    let err = parse_file(corpus("no/such/file.sgf")).expect_err("an error");
    assert!(matches!(err.kind(), ErrorKind::Io(_)));
    assert!(err
        .to_string()
        .contains("no/such/file.sgf: cannot read the file"));
}

// ---- game information ----

#[test]
fn fox_komi_and_weiqihub_files() {
    // Fox 9×9, Chinese rules: KM[375] is 3¾ stones, 7.5 points; RE[W+4.25] is in stones too.
    let r = file("weiqihub/test/game_record_snapshot_tests/fixtures/fox_9x9.sgf");
    assert_eq!(r.komi, Some(Komi(15)));
    assert_eq!(r.info.komi.as_deref(), Some("375"));
    assert_eq!(r.info.result.as_deref(), Some("W+4.25"));
    assert!(matches!(&r.warnings[0], Warning::Komi { raw, .. } if raw == "375"));
    clean(&r);
    let r = file("weiqihub/test/game_record_snapshot_tests/fixtures/ogs_9x9.sgf");
    assert_eq!((r.width, r.komi), (9, Some(Komi(13))));
    assert_eq!(r.rules.map(|m| m.preset), Some(Preset::Japanese));
    clean(&r);

    assert_eq!(one("(;KM[750])").komi, Some(Komi(15)));
    assert_eq!(one("(;KM[6.500000])").komi, Some(Komi(13)));
    let r = one("(;KM[375])"); // no RU: 3.75 is no komi ingo can hold
    assert_eq!(r.komi, None);
    assert_eq!(r.info.komi.as_deref(), Some("375"));
    assert!(matches!(&r.warnings[0], Warning::Komi { .. }));
    let r = one("(;KM[six])");
    assert_eq!((r.komi, r.warnings.len()), (None, 1));
}

/// The Fox client writes `KM[0]` on an even 19×19 game played with its default komi, 3¾ stones
/// (7.5 points): `FOX_EVEN_KOMI`, measured on the corpus's counted Fox records (55 of 56 name
/// their winner with 7.5, 31 with 0). A handicap game, another size or another program keeps
/// its `KM[0]`.
#[test]
fn fox_writes_its_default_komi_as_zero() {
    // Source: shared/sgf-corpus/yenw-computer-go-dataset/AI/DeepZenGo/Fox Go Server/
    // 2017.02.23 cpbl vs DeepZenGo (65424286).SGF, RE[W+1.5]; counted by area B+5 before komi.
    let r = file(
        "yenw-computer-go-dataset/AI/DeepZenGo/Fox Go Server/2017.02.23 cpbl vs DeepZenGo (65424286).SGF",
    );
    assert_eq!(r.info.komi.as_deref(), Some("0"));
    assert_eq!(r.komi, Some(ingo_sgf::FOX_EVEN_KOMI));
    assert_eq!(r.komi, Some(Komi(15)));
    assert!(r
        .warnings
        .iter()
        .any(|w| matches!(w, Warning::Komi { raw, .. } if raw == "0")));
    let fox = "(;AP[YuanYu]SZ[19]KM[0]HA[0]RU[Japanese]RE[W+1.5];B[pd])";
    assert_eq!(one(fox).komi, Some(Komi(15)));
    assert_eq!(one(&fox.replace("YuanYu", "foxwq")).komi, Some(Komi(15)));
    // Not Fox, not even, not 19×19, or a komi that is not zero: as written.
    for text in [
        fox.replace("AP[YuanYu]", "AP[CGoban:3]"),
        fox.replace("HA[0]", "HA[2]AB[dd][pp]"),
        fox.replace("SZ[19]", "SZ[9]").replace("pd", "ee"),
        fox.replace("KM[0]", "KM[650]"),
    ] {
        let r = one(&text);
        assert_ne!(r.komi, Some(Komi(15)), "{text}");
    }
}

/// A zero margin is a count only where the komi allows a tie: Ing's `B+0` (a tie is Black's),
/// not Fox's `W+0.0` beside a half-point komi (a win the client did not count).
#[test]
fn a_zero_margin_is_a_count_only_where_a_tie_can_be() {
    // Source: shared/sgf-corpus/yenw-computer-go-dataset/AI/BensonDarr/
    // 2018.01.26 BensonDarr VS haqzero (010001058).SGF: RE[W+0.0] after 18 moves.
    let r = file(
        "yenw-computer-go-dataset/AI/BensonDarr/2018.01.26 BensonDarr VS haqzero (010001058).SGF",
    );
    assert_eq!(
        (r.info.result.as_deref(), r.moves.len()),
        (Some("W+0.0"), 18)
    );
    assert_eq!(ingo_sgf::counted_result("W+0.0"), Some((Color::White, 0)));
    assert_eq!(r.counted_result(), None);
    assert_eq!(one("(;KM[7.5]RE[B+0];B[dd])").counted_result(), None);
    assert_eq!(
        one("(;KM[8]RE[B+0];B[dd])").counted_result(),
        Some((Color::Black, 0))
    );
    assert_eq!(
        one("(;RE[B+0];B[dd])").counted_result(),
        Some((Color::Black, 0))
    );
    assert_eq!(
        one("(;KM[7.5]RE[W+0.5];B[dd])").counted_result(),
        Some((Color::White, 1))
    );
    assert_eq!(one("(;KM[7.5]RE[B+R];B[dd])").counted_result(), None);
    assert_eq!(one("(;KM[7.5])").counted_result(), None);
}

/// A result kept on a record that holds no game (no move, no stone) counts no board: it is no
/// count for a check against its board (`judge --verify`, the end-of-game bench and test).
#[test]
fn a_result_without_a_board_is_no_count() {
    // Source: shared/sgf-corpus/aeb-pro/Asahi_Top8/4.sgf: RE[B+7.5], KM[5.5], no moves.
    let r = file("aeb-pro/Asahi_Top8/4.sgf");
    assert_eq!(
        (r.info.result.as_deref(), r.moves.len()),
        (Some("B+7.5"), 0)
    );
    assert_eq!(r.counted_result(), None);
    assert_eq!(one("(;KM[5.5]RE[B+7.5])").counted_result(), None);
    // A board of setup stones alone is a board.
    assert_eq!(
        one("(;KM[5.5]RE[B+7.5]AB[dd]AW[pp])").counted_result(),
        Some((Color::Black, 15))
    );
    assert_eq!(
        one("(;KM[5.5]RE[B+7.5];B[dd])").counted_result(),
        Some((Color::Black, 15))
    );
}

#[test]
fn rules_are_mapped_with_a_note() {
    for (ru, preset, exact) in [
        ("GOE", Preset::Ing, true),
        ("Ing", Preset::Ing, true),
        ("Ing Goe", Preset::Ing, true),
        ("SST", Preset::Ing, true),
        ("Chinese", Preset::Chinese, true),
        ("Japanese", Preset::Japanese, true),
        ("Korean", Preset::Japanese, false),
        ("AGA", Preset::Chinese, false),
        ("NZ", Preset::TrompTaylor, false),
        ("New Zealand", Preset::TrompTaylor, false),
        ("Tromp-Taylor", Preset::TrompTaylor, true),
        ("TT", Preset::TrompTaylor, true),
    ] {
        let r = one(&format!("(;RU[{ru}]KM[7.5])"));
        let m = r.rules.expect(ru);
        assert_eq!((m.preset, m.exact), (preset, exact), "{ru}");
        assert!(!m.note.is_empty());
        assert_eq!(r.warnings.len(), usize::from(!exact), "{ru}");
        let rules = r.rules_or(Preset::Ing);
        assert_eq!(rules.komi, Komi(15));
        assert_eq!(rules.ko, preset.rules().ko);
    }
    let r = one("(;RU[Pair go])");
    assert_eq!(r.rules, None);
    assert_eq!(r.warnings, [Warning::UnknownRules("Pair go".into())]);
    assert_eq!(r.rules_or(Preset::Ing), Rules::ing());
}

#[test]
fn handicap() {
    let r = one("(;HA[7.5])");
    assert_eq!(r.handicap, None);
    assert_eq!(r.warnings, [Warning::Handicap("7.5".into())]);
    assert_eq!(one("(;HA[1])").handicap, Some(1));
    // Ing's handicap: no stones, White passes (N-1 of them).
    let setup = one("(;HA[3];B[aa])").setup().expect("setup");
    assert_eq!(setup.handicap_passes, 2);
    let setup = one("(;HA[2]AB[dd][pp];W[aa])").setup().expect("setup");
    assert_eq!((setup.handicap_passes, setup.to_move), (0, Color::White));
}

// ---- setup ----

#[test]
fn setup_before_the_first_move() {
    // Lee Sedol vs HanDol game 3: handicap stones in the second node.
    let r = file("yenw-computer-go-dataset/AI/HanDol/Lee Sedol VS HanDol - G3.sgf");
    assert_eq!(r.setup_events.len(), 1);
    assert_eq!(r.setup_events[0].node_number, 1);
    assert_eq!(r.setup_events[0].after_move, 0);
    let setup = r.setup().expect("setup");
    assert_eq!(setup.board.stone_count(Color::Black), 2);
    assert_eq!(setup.to_move, Color::White);
    clean(&r);

    let r = one("(;SZ[9]AB[aa][bb]AW[cc]PL[W];AE[aa]AB[dd];W[ee])");
    let setup = r.setup().expect("setup");
    assert_eq!(setup.board.stone_count(Color::Black), 2);
    assert_eq!(setup.board.color_at(pt("aa", 9)), None);
    assert_eq!(setup.to_move, Color::White);
    // AB over a White stone replaces it.
    let setup = one("(;SZ[9]AW[cc];AB[cc])").setup().expect("setup");
    assert_eq!(setup.board.color_at(pt("cc", 9)), Some(Color::Black));
    // A compressed list.
    let setup = one("(;SZ[9]AB[aa:cc])").setup().expect("setup");
    assert_eq!(setup.board.stone_count(Color::Black), 9);
}

#[test]
fn setup_inside_the_game() {
    // Changing the board after a move cannot be replayed: the error names the node.
    let r = one("(;SZ[9];B[aa];W[bb];AB[cc];W[dd])");
    assert_eq!(r.setup_in_game().map(|e| e.node_number), Some(3));
    let err = replay(&r, Rules::ing(), ReplayMode::Strict).expect_err("an error");
    assert!(matches!(
        err.kind(),
        ErrorKind::SetupInGame {
            node: 3,
            after_move: 2
        }
    ));
    assert_eq!(
        err.to_string(),
        "node 3: setup after move 2 cannot be replayed"
    );
    // The moves before it can still be replayed.
    let r2 = replay_moves(&r, Rules::ing(), ReplayMode::Strict, 2).expect("prefix");
    assert_eq!(r2.played, 2);

    // Setup that changes nothing, PL alone, and setup after the last move are ignored. GNU Go
    // writes `W[tt]AE[...]` to clear dead stones: the AE comes after the pass.
    for text in [
        "(;SZ[9];B[aa];AB[aa];W[bb])",
        "(;SZ[9];B[aa];PL[W];W[bb])",
        "(;SZ[9];B[aa];W[bb]AE[aa])",
    ] {
        let r = one(text);
        let played = replay(&r, Rules::ing(), ReplayMode::Strict).expect(text);
        assert!(played.is_clean(), "{text}");
    }
    let r = file("gnugo/regression/games/explorer2.sgf");
    assert!(r.warnings.contains(&Warning::SetupAndMove(187)));
    clean(&r);
}

// ---- replay ----

#[test]
fn two_moves_in_a_row_get_a_pass_between() {
    let r = one("(;SZ[9];B[aa];B[bb];B[cc];W[dd])");
    let played = replay(&r, Rules::ing(), ReplayMode::Strict).expect("replay");
    assert!(played.is_clean());
    assert_eq!(
        played.inserted_passes,
        [
            InsertedPass {
                before_move: 2,
                color: Color::White
            },
            InsertedPass {
                before_move: 3,
                color: Color::White
            }
        ]
    );
    assert_eq!(played.game.move_count(), 6);
    // A record that starts with White needs no pass: White is to move.
    let r = one("(;SZ[9];W[aa];B[bb])");
    assert!(replay(&r, Rules::ing(), ReplayMode::Strict)
        .expect("replay")
        .inserted_passes
        .is_empty());
}

#[test]
fn moves_after_the_end_are_refused() {
    let r = one("(;SZ[9];B[];W[];B[];W[];B[aa])");
    let played = replay(&r, Rules::ing(), ReplayMode::Tolerant).expect("replay");
    let illegal = played.illegal.expect("refused");
    assert_eq!(
        (illegal.move_number, illegal.reason),
        (5, PlayErrorKind::GameOver)
    );
    // Out of turn after the end: also game over, not a pass.
    let r = one("(;SZ[9];B[];W[];B[];W[];W[aa])");
    let illegal = replay(&r, Rules::ing(), ReplayMode::Strict)
        .expect("replay")
        .illegal
        .expect("refused");
    assert_eq!(illegal.reason, PlayErrorKind::GameOver);
}

#[test]
fn off_board_and_occupied() {
    let r = one("(;SZ[9];B[ss])");
    let illegal = replay(&r, Rules::ing(), ReplayMode::Tolerant)
        .expect("replay")
        .illegal
        .expect("refused");
    assert_eq!(illegal.reason, PlayErrorKind::OffBoard);
    assert_eq!(illegal.point_gtp, "ss");
    let r = one("(;SZ[9];B[aa];W[aa])");
    let illegal = replay(&r, Rules::ing(), ReplayMode::Tolerant)
        .expect("replay")
        .illegal
        .expect("refused");
    assert_eq!(illegal.to_string(), "move 2 (W A9): occupied");
    assert_eq!(illegal.node_number, 2);
}

#[test]
fn replay_prefix() {
    let r = one("(;SZ[9];B[aa];W[bb];B[cc])");
    let part = replay_moves(&r, Rules::ing(), ReplayMode::Strict, 2).expect("replay");
    assert_eq!((part.played, part.game.move_count()), (2, 2));
    assert_eq!(part.game.to_move(), Color::Black);
    let all = replay_moves(&r, Rules::ing(), ReplayMode::Strict, 99).expect("replay");
    assert_eq!(all.played, 3);
}

/// Found by the `sgf_parse` fuzz target: `bbGM[2]` (an FF[3] identifier with lowercase letters)
/// was read as Go, then written back as `GM[2]`, which is not Go.
#[test]
fn lowercase_gm_of_another_game_is_not_go() {
    let err = ingo_sgf::parse("(;bbGM[2]SZ[9];B[aa])").expect_err("GM[2] is not Go");
    assert!(err.to_string().contains("not a game of Go"), "{err}");
    assert!(ingo_sgf::parse("(;bbGM[1]SZ[9];B[aa])").is_ok());
}

/// Inputs the fuzz targets found once (`tests/data/fuzz/`): each must read, or fail to read,
/// without a panic, and whatever reads must read back the same after writing.
#[test]
fn fuzz_regressions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/data/fuzz exists") {
        let path = entry.expect("readable dir").path();
        let bytes = std::fs::read(&path).expect("readable file");
        n += 1;
        if let Ok(records) = ingo_sgf::parse_bytes(&bytes, &ingo_sgf::ReadOptions::default()) {
            for r in &records {
                let again = ingo_sgf::parse(&ingo_sgf::write(r)).unwrap_or_else(|e| {
                    panic!("{}: written text does not read: {e}", path.display())
                });
                assert_eq!(again[0].moves, r.moves, "{}", path.display());
            }
        }
    }
    assert!(n > 0, "no fuzz regression inputs in {}", dir.display());
}
