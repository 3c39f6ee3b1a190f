//! Human-readable reports: the count as an Ing referee reads it off the board (`ingo-front`
//! holds it, since the GTP front's `ingo-count` gives the same text).

pub use ingo_front::count_text;
