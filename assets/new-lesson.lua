-- @TITLE@: a scalelab lesson (made by 'scalelab new' from assets/new-lesson.lua).
-- Change it page by page and run 'scalelab check FILE' after each change;
-- 'scalelab FILE' opens it in the program, which reloads it when you save.
-- The whole format and every scalelab.* function: @GUIDE@
--
-- Sources: name the public source of every figure you type in. The figures
-- below come from the presets (assets/presets.lua names the source of each).
local U = scalelab.units

-- The setup the pages share. Presets: 'scalelab eval --list'.
local cluster = { system = "hgx-h200", gpus = 16 }       -- two 8-GPU servers
local workload = { model = "llama3-70b", batch = 64, mb = 1 }
local dgx = scalelab.system(cluster.system)

-- The goal is computed, not typed in: the step time of the good mapping,
-- so the lesson stays right when the model's figures change.
local good = scalelab.step { cluster = cluster, workload = workload,
                             mapping = { tp = 8, pp = 2, dp = 1 } }
local target_s = good.step_s * 1.05

-- A number to predict, worked from the preset: 1 GB over one NVLink link.
local copy_bytes = 1e9
local copy_lat_s = 2e-6                          -- a few microseconds per message
local copy_s = copy_lat_s + copy_bytes / dgx.up_bytes_per_s

return {
  id = "@ID@",            -- unique across all lessons: a-z, 0-9 and '-'
  title = "@TITLE@",      -- shown in the menu and on every page
  summary = "One line that says what the learner will be able to do.",
  track = "Drafts",          -- the menu groups lessons by track...
  order = 100,               -- ...and sorts them by order within it
  minutes = 5,               -- rough length (optional)
  pages = {
    -- 1. Text: light markup (# heading, *emphasis*, `code`, - bullets);
    --    splice computed figures in with '..'.
    { kind = "text", title = "Two speeds", text = [[
# Two speeds
Inside one server each GPU talks over NVLink at ]] ..
      U.format("bandwidth", dgx.up_bytes_per_s) .. [[ per direction.
Between servers it has one NIC: ]] ..
      U.format("bandwidth", dgx.out_bytes_per_s) .. [[.
]] },

    -- 2. Diagram: view = "rack" or "fabric" (a cluster), "bar" or "chart"
    --    (also a workload and mapping); text is the caption.
    { kind = "diagram", title = "Two servers", view = "fabric",
      cluster = cluster,
      text = "Two servers of *8 GPUs*: NVLink inside, the network between." },

    -- 3. Scenario: the learner changes the mapping until goal.check passes.
    --    'scalelab check' requires the goal to fail at the start and to pass
    --    after the solution moves, so keep the three in step when you edit.
    { kind = "scenario", title = "Fix the split",
      text = "TP 16 spans both servers. Make every TP group fit in one.",
      cluster = cluster, workload = workload,
      mapping = { tp = 16, pp = 1, dp = 1, zero = 0 }, -- the start; zero: 1 if not given
      allow = { "degrees" },    -- moves allowed: move, degrees, micro, domain, system, search
      goal = { text = "Step under " .. U.format("time", target_s) .. ".",
               target = { step_s = target_s },   -- drawn as a mark on the step bar
               check = function(r)   -- r: the result table (AUTHORING.md)
                 if r.fits and r.step_s < target_s then return true end
                 return false, r.fits and "step is " .. U.format("time", r.step_s) or "it does not fit"
               end },
      hints = { "Which group crosses the network?",   -- revealed one at a time
                "TP talks every layer; PP only at stage boundaries.",
                "Try TP 8 and PP 2." },
      -- The debrief sees what the learner did: r as the goal sees it, plus r.moves.
      debrief = function(r)
        return scalelab.fill("TP {tp} now stays on NVLink; only PP {pp} sends cross servers.",
                             { tp = r.mapping.tp, pp = r.mapping.pp })
      end,
      solution = { "tp 8", "pp 2" },   -- reference moves that meet the goal
      par = 2 },                        -- its key presses (T, y): check proves it

    -- 4. Quiz: at least one choice correct; every choice explains itself.
    --    The learner sees the choices shuffled; wrong ones should be real
    --    misconceptions, explained without giving the answer away.
    { kind = "quiz", title = "Check", text = "Where should TP groups live?",
      choices = {
        { text = "Inside one NVLink domain", correct = true,
          explain = "TP talks every layer: it needs the fastest links." },
        { text = "Spread over the network", correct = false,
          explain = "Every layer would wait for the NICs." },
        { text = "Wherever DP groups are not", correct = false,
          explain = "DP meets once per step; it is TP's traffic that decides." },
      } },

    -- 5. Predict: the learner types a number with its unit ("2 ms", "450 GB/s");
    --    answer is in base units (s, B, B/s, FLOP/s, FLOP, W), from the model.
    { kind = "predict", title = "One copy",
      text = scalelab.fill("Copy {size} from one GPU to another inside a {sys}, over "
                           .. "NVLink at {bw} per direction.",
                           { size = U.format("bytes", copy_bytes), sys = dgx.name,
                             bw = U.format("bandwidth", dgx.up_bytes_per_s) }),
      question = "How long does the copy take?",
      unit = "s", answer = copy_s,          -- right within 20% unless tolerance says
      terms = { { name = "latency", value = copy_lat_s },
                { name = "bandwidth", value = copy_bytes / dgx.up_bytes_per_s } },
      formula = "time = latency + bytes / bandwidth = " .. U.format("time", copy_s) },

    -- 6. Summary: what to remember, in a few bullets.
    { kind = "text", title = "Summary", text = [[
# Summary
- Scale-up links (NVLink) are several times faster than scale-out (the NIC).
- Put the chattiest parallel dimension, TP, inside one scale-up domain.
]] },
  },
}
