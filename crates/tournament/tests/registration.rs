//! A registration list read from CSV: columns by their header, in any order, quoted fields,
//! and every bad line refused with its number.

use ingo_competition::Rank;
use ingo_tournament::registration::read_registration_csv;

#[test]
fn a_registration_list_reads_its_columns_by_the_header() {
    let list = "\
Surname,Given name,Rank,Country,Club,EGD_PIN
# late sign-ups below
\"Lee\",\"Ann, Marie\",2k,de,FC Berlin,12345678

Chen,Bo,3d,TW,,
";
    let players = read_registration_csv(list).expect("list");
    assert_eq!(players.len(), 2);
    let ann = &players[0];
    assert_eq!(ann.name, "Ann, Marie Lee");
    assert_eq!(
        (ann.surname.as_deref(), ann.given_name.as_deref()),
        (Some("Lee"), Some("Ann, Marie"))
    );
    assert_eq!(ann.rank, Some(Rank::Kyu(2)));
    assert_eq!(
        (ann.country.as_deref(), ann.club.as_deref(), ann.egd_pin),
        (Some("DE"), Some("FC Berlin"), Some(12_345_678))
    );
    let bo = &players[1];
    assert_eq!((bo.name.as_str(), bo.rank), ("Bo Chen", Some(Rank::Dan(3))));
    assert_eq!((bo.club.as_deref(), bo.egd_pin), (None, None));
}

#[test]
fn a_bad_registration_line_is_refused_with_its_number() {
    for (list, line, says) in [
        ("name,rnak\nAnn,2k\n", 1, "unknown column \"rnak\""),
        ("name,rank\nAnn,2k\nBo,12x\n", 3, "rank \"12x\""),
        ("name,country\nAnn,Germany\n", 2, "two-letter"),
        ("name,egd_pin\nAnn,P123\n", 2, "EGD PIN"),
        ("name,rank\nAnn,2k\nAnn,3k\n", 3, "listed twice"),
        ("name,rank\nAnn\n", 2, "1 fields"),
        ("rank,club\n2k,Berlin\n", 1, "no name column"),
        ("name,club\n,Berlin\n", 2, "no name"),
    ] {
        let e = read_registration_csv(list).expect_err(list);
        assert_eq!(e.line, line, "{list}: {e}");
        assert!(e.reason.contains(says), "{list}: {e}");
    }
}
