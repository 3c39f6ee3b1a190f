//! A registration list read from CSV: one player a line, under a header naming the columns,
//! as a director exports it from a sign-up form or a spreadsheet.

use crate::{country_code, Entrant};

/// A column of a registration list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Name,
    Rank,
    Surname,
    GivenName,
    Country,
    Club,
    EgdPin,
}

impl Column {
    /// The column a header names (case and blanks or `_` between words do not matter).
    fn of(header: &str) -> Option<Column> {
        let key: String = header
            .to_lowercase()
            .split(|c: char| c.is_whitespace() || c == '_' || c == '-')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        Some(match key.as_str() {
            "name" => Column::Name,
            "rank" | "grade" => Column::Rank,
            "surname" | "last name" | "family name" => Column::Surname,
            "given name" | "first name" => Column::GivenName,
            "country" => Column::Country,
            "club" => Column::Club,
            "egd pin" | "pin" => Column::EgdPin,
            _ => return None,
        })
    }
}

/// A registration list that cannot be read: the line (from 1; the header is line 1) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct RegistrationError {
    /// Line, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

fn error(line: usize, reason: impl Into<String>) -> RegistrationError {
    RegistrationError {
        line,
        reason: reason.into(),
    }
}

/// Reads a registration list: CSV (RFC 4180: a field with a comma or a quote is quoted) with
/// a header line naming its columns, in any order: `name` (required), `rank`, `surname`,
/// `given_name`, `country` (two letters), `club`, `egd_pin`. An empty field is unknown; with
/// no `name` column, or an empty name, the name is the given name and the surname. Blank
/// lines and lines starting with `#` are skipped. Returns single players, in the list's order.
///
/// ```
/// use ingo_tournament::registration::read_registration_csv;
/// let list = "name,rank,country,club\n\"Lee, Ann\",2k,de,Berlin\nBo,,,\n";
/// let players = read_registration_csv(list).unwrap();
/// assert_eq!(players[0].name, "Lee, Ann");
/// assert_eq!(players[0].country.as_deref(), Some("DE"));
/// assert_eq!(players[1].rank, None);
/// ```
///
/// # Errors
///
/// The first line that does not read: an unknown or repeated column, a missing name, a rank,
/// country or PIN that does not parse, a name given twice.
pub fn read_registration_csv(text: &str) -> Result<Vec<Entrant>, RegistrationError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let mut columns: Option<Vec<Column>> = None;
    let mut out: Vec<Entrant> = Vec::new();
    for record in reader.records() {
        let record = record
            .map_err(|e| error(e.position().map_or(0, |p| p.line() as usize), e.to_string()))?;
        let n = record.position().map_or(0, |p| p.line() as usize);
        if record.iter().all(str::is_empty) {
            continue;
        }
        let Some(cols) = &columns else {
            let mut cols = Vec::new();
            for h in record.iter() {
                let c = Column::of(h).ok_or_else(|| {
                    error(
                        n,
                        format!(
                            "unknown column {h:?}: expected name, rank, surname, given_name, \
                             country, club, egd_pin"
                        ),
                    )
                })?;
                if cols.contains(&c) {
                    return Err(error(n, format!("column {h:?} twice")));
                }
                cols.push(c);
            }
            if ![Column::Name, Column::Surname, Column::GivenName]
                .iter()
                .any(|c| cols.contains(c))
            {
                return Err(error(n, "no name column (name, or surname and given_name)"));
            }
            columns = Some(cols);
            continue;
        };
        if record.len() != cols.len() {
            return Err(error(
                n,
                format!("{} fields, but the header has {}", record.len(), cols.len()),
            ));
        }
        let mut e = Entrant::player("", None);
        for (c, v) in cols.iter().zip(record.iter()) {
            if v.is_empty() {
                continue;
            }
            let v = v.to_owned();
            match c {
                Column::Name => e.name = v,
                Column::Rank => {
                    e.rank = Some(
                        v.parse()
                            .map_err(|r| error(n, format!("rank {v:?}: {r}")))?,
                    )
                }
                Column::Surname => e.surname = Some(v),
                Column::GivenName => e.given_name = Some(v),
                Column::Country => e.country = Some(country_code(&v).map_err(|r| error(n, r))?),
                Column::Club => e.club = Some(v),
                Column::EgdPin => {
                    e.egd_pin = Some(
                        v.parse()
                            .map_err(|_| error(n, format!("EGD PIN {v:?} is not a number")))?,
                    )
                }
            }
        }
        if e.name.is_empty() {
            e.name = [e.given_name.as_deref(), e.surname.as_deref()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" ");
        }
        if e.name.is_empty() {
            return Err(error(n, "no name"));
        }
        if out.iter().any(|x| x.name == e.name) {
            return Err(error(n, format!("{:?} is listed twice", e.name)));
        }
        out.push(e);
    }
    Ok(out)
}
