//! The OpenAPI file stays true: every `/api` route the server declares is documented there.
#![allow(clippy::unwrap_used)] // Tests: a failed unwrap is a failed test.

#[test]
fn every_api_route_is_in_openapi_yaml() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.yaml"))
        .expect("openapi.yaml");
    let mut routes = Vec::new();
    // Every source file, in the subfolders too (the routes live under `src/http/`).
    let mut files = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(dir)];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).expect("src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    for path in files {
        if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("source");
            for piece in text.split(".route(\"").skip(1) {
                let route = piece.split('"').next().unwrap_or("");
                if route.starts_with("/api") {
                    routes.push(route.to_owned());
                }
            }
        }
    }
    assert!(routes.len() >= 15, "found only {routes:?}");
    for r in &routes {
        assert!(
            doc.contains(&format!("\n  {r}:\n")),
            "{r} is served but not documented in openapi.yaml"
        );
    }
}
