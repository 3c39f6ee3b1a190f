//! The lobby's time controls by name (Chromium over WebDriver, as `browser.rs`): presets in
//! words (blitz, rapid, Ing's 3 hours with penalty points…) that fill the text box, and the
//! text box for any other control, said in words as it is typed.
//!
//! Without Chromium or chromedriver the tests fail under CI and are skipped with a note
//! elsewhere (`ingo_testkit::chromium`).

// A failed step of a browser test is a failed test: its panic says where.
#![allow(clippy::unwrap_used)]

mod browser_util;

use std::time::Duration;

use browser_util::*;
use fantoccini::Client;
use serde_json::{json, Value};

/// The challenge form's preset, text box and words.
async fn field(b: &Client) -> Value {
    b.execute(
        "const f = document.getElementById('challenge-form'); const s = f.querySelector('select[name=tc_preset]'); \
         return [s.value, s.selectedOptions[0].textContent, f.querySelector('input[name=time_control]').value, s.parentElement.querySelector('.tc-words').textContent]",
        vec![],
    )
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn time_controls_are_offered_by_name_with_the_text_box_for_the_rest() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.browser(1280, 1000).await;
        register(&b, &app.base, "alice", "1d").await;
        let form = challenge_form(&b, &app.base).await;
        // The default is Ing's hour with penalty points, named and said in words.
        let f = field(&b).await;
        assert_eq!(f[0], "ing_hour", "{f}");
        assert_eq!(f[2], "ing-pp:1h", "{f}");
        // Ing's 3 hours, as in the Ing Cup: the text box follows.
        select(&form, "tc_preset", "ing_cup").await;
        let f = field(&b).await;
        assert_eq!(f[2], "ing-pp:3h", "{f}");
        for words in ["Ing Cup", "basic time 3h, then penalty points"] {
            assert!(f[1].as_str().unwrap().contains(words), "{words:?} in {f}");
        }
        // Another control typed: the preset says "other", the words say what was typed.
        let tc = form.find(css("input[name=time_control]")).await.unwrap();
        tc.clear().await.unwrap();
        tc.send_keys("canadian:20m+25/5m").await.unwrap();
        let f = field(&b).await;
        assert_eq!(f[0], "other", "{f}");
        assert_eq!(f[3], "20m, then 25 stones in every 5m (Canadian)", "{f}");
        // Blitz, chosen by name, is the challenge's control.
        select(&form, "tc_preset", "blitz").await;
        submit(&form).await;
        let item = wait_until(
            &b,
            "the challenge in the lobby",
            "const li = document.querySelector('[data-challenge]'); return li ? li.textContent : null",
        )
        .await;
        assert!(item.as_str().unwrap().contains("byoyomi:5m+3x10s"), "{item}");
        let list = app.get_text("/api/challenges").await;
        let list: Value = serde_json::from_str(&list).unwrap();
        assert_eq!(list[0]["time_control"], json!("byoyomi:5m+3x10s"), "{list}");
        b.close().await.unwrap();
    })
    .await;
}
