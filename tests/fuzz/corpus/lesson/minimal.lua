return {
  id = "fuzz-min", title = "Minimal", summary = "One text page and one quiz.",
  track = "basics", order = 1,
  pages = {
    { kind = "text", title = "Hello", text = "# Heading\n\nSome *emphasis* and `code`.\n- a bullet" },
    { kind = "quiz", question = "Which tier is NVLink?", choices = { "scale-up", "scale-out" },
      answer = 1, explain = { "Right: inside the domain.", "No: that is InfiniBand." } },
    { kind = "scenario", title = "Goal", goal_text = "Keep TP inside a domain",
      goal = function(r) return r and r.step_s ~= nil and r.step_s < 1.0, "too slow" end,
      hints = { "nudge", "concept", "near solution" } },
  },
}
