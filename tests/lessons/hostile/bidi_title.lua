-- A lesson that loads, with bidirectional controls in its title and id-free
-- text: check passes, and the list shows the title escaped.
return { id = "bidi-title", title = "Grow \u{202E}tuo elacs\u{202C} now", summary = "\u{2067}s\u{2069}",
  pages = { { kind = "text", title = "\u{200E}t", text = "t" } } }
