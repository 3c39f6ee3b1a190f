//! PNG output: the SVG rasterized by resvg, with the machine's fonts for its text.

use std::{
    error::Error as StdError,
    sync::{Arc, OnceLock},
};

use resvg::{
    tiny_skia::{Pixmap, Transform},
    usvg::{
        self,
        fontdb::{Database, Family, Query},
    },
};

use crate::{render_svg, Diagram, DiagramOptions};

/// Families tried, in order, for the generic `serif` and `sans-serif` families when the
/// database's own defaults (Times New Roman, Arial) are not installed.
const PREFERRED_FAMILIES: [&str; 6] = [
    "DejaVu Sans",
    "Liberation Sans",
    "Noto Sans",
    "Arial",
    "Helvetica",
    "FreeSans",
];

/// The error for a diagram that could not be made into a PNG.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The SVG could not be read back (a bug in this crate, reported rather than a panic).
    #[error("cannot read back the generated svg")]
    Svg(#[source] Box<dyn StdError + Send + Sync>),
    /// The pixel canvas could not be made: a side is zero or the image is too large.
    #[error("cannot make a canvas of {width}×{height} pixels")]
    Canvas {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// The pixels could not be encoded as PNG.
    #[error("cannot encode the png")]
    Encode(#[source] Box<dyn StdError + Send + Sync>),
}

/// Renders `diagram` as a PNG image, at the pixel size of [`render_svg`]'s document.
///
/// Text is drawn with the fonts installed on the machine, found once per process (through
/// fontconfig's directories and the usual font folders); DejaVu Sans is preferred. Where no
/// font is installed the text is left out, and the board, stones and marks are drawn as usual.
/// No font is ever downloaded. To use fonts of your own, see [`render_png_with_fonts`].
///
/// # Errors
/// [`RenderError::Canvas`] when the image cannot be allocated; the other variants mark bugs.
pub fn render_png(diagram: &Diagram<'_>, options: &DiagramOptions) -> Result<Vec<u8>, RenderError> {
    render_png_with_fonts(diagram, options, system_fonts())
}

/// Renders `diagram` as a PNG image, drawing its text with the fonts of `fonts`, for example a
/// font the caller embeds with [`Database::load_font_data`].
///
/// When the database does not hold the families the SVG names, its generic `serif` and
/// `sans-serif` families are pointed at a font it does hold. An empty database draws no text.
///
/// ```
/// use std::sync::Arc;
/// use ingo_render::{fontdb::Database, render_png_with_fonts, Diagram, DiagramOptions};
/// use ingo_rules::Board;
/// let board = Board::new(5).unwrap();
/// let png = render_png_with_fonts(
///     &Diagram::new(&board),
///     &DiagramOptions::default(),
///     Arc::new(Database::new()), // no fonts: no coordinates drawn
/// )
/// .unwrap();
/// assert_eq!(&png[1..4], b"PNG");
/// ```
///
/// # Errors
/// As [`render_png`].
pub fn render_png_with_fonts(
    diagram: &Diagram<'_>,
    options: &DiagramOptions,
    fonts: Arc<Database>,
) -> Result<Vec<u8>, RenderError> {
    rasterize(&render_svg(diagram, options), fonts)
}

/// Draws an SVG this crate wrote with the fonts of `fonts` (its generic families pointed at a
/// font it holds) and encodes it as PNG.
pub(crate) fn rasterize(svg: &str, mut fonts: Arc<Database>) -> Result<Vec<u8>, RenderError> {
    if let Some(family) = fallback_family(&fonts) {
        let db = Arc::make_mut(&mut fonts);
        db.set_serif_family(family.clone());
        db.set_sans_serif_family(family);
    }
    let opt = usvg::Options {
        fontdb: fonts,
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| RenderError::Svg(Box::new(e)))?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    let mut pixmap = Pixmap::new(width, height).ok_or(RenderError::Canvas { width, height })?;
    resvg::render(&tree, Transform::identity(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| RenderError::Encode(Box::new(e)))
}

/// The machine's fonts, loaded on first use: scanning the font folders takes tens of
/// milliseconds, too long to repeat for every diagram of a game.
pub(crate) fn system_fonts() -> Arc<Database> {
    static FONTS: OnceLock<Arc<Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = Database::new();
            db.load_system_fonts();
            Arc::new(db)
        })
        .clone()
}

/// A family for the generic families, when they name no font of `db` and `db` has any.
///
/// usvg falls back to the generic `serif` family when none of an element's families is found,
/// and fontdb defaults it to Times New Roman, which Linux machines rarely have: without this,
/// text would vanish on a machine full of other fonts.
fn fallback_family(db: &Database) -> Option<String> {
    let found = |family: Family<'_>| {
        db.query(&Query {
            families: &[family],
            ..Query::default()
        })
        .is_some()
    };
    if found(Family::Serif) && found(Family::SansSerif) {
        return None;
    }
    PREFERRED_FAMILIES
        .iter()
        .find(|name| found(Family::Name(name)))
        .map(|name| (*name).to_string())
        .or_else(|| {
            let face = db.faces().next()?;
            face.families.first().map(|(name, _)| name.clone())
        })
}
