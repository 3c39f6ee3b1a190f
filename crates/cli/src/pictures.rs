//! Writing diagrams to files, shared by `ingo score` and `ingo render`.

/// Refuses outputs that would write over the `input` record: the same file (device and inode,
/// so also through another path, a symbolic link or a hard link), or the same canonical path.
/// An output that does not exist yet cannot be the input.
pub fn refuse_to_overwrite<const N: usize>(
    input: &std::path::Path,
    outputs: [Option<&std::path::Path>; N],
) -> anyhow::Result<()> {
    for out in outputs.into_iter().flatten() {
        let (Ok(a), Ok(b)) = (std::fs::metadata(input), std::fs::metadata(out)) else {
            continue;
        };
        #[cfg(unix)]
        let same = {
            use std::os::unix::fs::MetadataExt;
            a.dev() == b.dev() && a.ino() == b.ino()
        };
        #[cfg(not(unix))]
        let same = {
            let _ = (a, b);
            std::fs::canonicalize(input).ok() == std::fs::canonicalize(out).ok()
        };
        if same {
            anyhow::bail!(
                "refusing to write {}: it is the input record {}",
                out.display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// Writes the diagram as SVG and/or PNG.
pub fn write_pictures(
    diagram: &ingo_render::Diagram<'_>,
    options: &ingo_render::DiagramOptions,
    svg: Option<&std::path::Path>,
    png: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    use anyhow::Context;
    if let Some(path) = svg {
        std::fs::write(path, ingo_render::render_svg(diagram, options))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = png {
        let bytes = ingo_render::render_png(diagram, options)?;
        std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}
