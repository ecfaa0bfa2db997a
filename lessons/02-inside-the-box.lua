-- Lesson 2: Inside the box.
-- Sources: NVLink generations, links per GPU and NVSwitch counts come from the
-- presets (assets/; jax-ml/scaling-book gpus.md NVLink table, NVIDIA DGX
-- A100/H100 and DGX B200 documentation). "Memory-semantic" load/store access
-- over NVLink: NVIDIA NVLink/NVSwitch product pages.

local U = scalelab.units
local function fill(text, v)
  return (text:gsub("{([%w_]+)}", function(k)
    local x = v[k]
    if x == nil then error("text names {" .. k .. "} but no value is given", 2) end
    return tostring(x)
  end))
end
local function gbit(bytes_per_s)
  return string.format("%d Gb/s", math.floor(bytes_per_s * 8 / 1e9 + 0.5))
end

local a100 = scalelab.system("dgx-a100")
local h100 = scalelab.system("dgx-h100")
local b200 = scalelab.system("dgx-b200")

local function row(s)
  return string.format("%s, %s: %s each way (%s both); NIC %s",
    s.name, s.up_link, U.format("bandwidth", s.up_bytes_per_s),
    U.format("bandwidth", 2 * s.up_bytes_per_s), gbit(s.out_bytes_per_s))
end

local bar = scalelab.step { cluster = { system = "dgx-h100", gpus = 8 },
  workload = { model = "llama3-8b", batch = 64, mb = 1 }, mapping = { tp = 8, pp = 1, dp = 1 } }

local V = {
  tp_pct = string.format("%.0f", 100 * bar.breakdown.tp_s / bar.step_s),
  n = h100.domain_gpus,
  switches = h100.up_switches,
  link = h100.up_link,
  up = U.format("bandwidth", h100.up_bytes_per_s),
  up2 = U.format("bandwidth", 2 * h100.up_bytes_per_s),
  out = U.format("bandwidth", h100.out_bytes_per_s),
  outbits = gbit(h100.out_bytes_per_s),
  ratio = string.format("%.0f", h100.up_bytes_per_s / h100.out_bytes_per_s),
  growth = string.format("%.0f", b200.up_bytes_per_s / a100.up_bytes_per_s),
  row_a = row(a100), row_h = row(h100), row_b = row(b200),
}

return {
  id = "inside-the-box",
  title = "Inside the box",
  summary = "NVLink, NVSwitch and the classic 8-GPU server.",
  track = "Part 1: Foundations",
  order = 2,
  minutes = 9,
  pages = {
    { kind = "text", steps = "paragraphs", title = "The classic 8-GPU server", text = fill([[
# Eight GPUs on one board
The workhorse of AI training for years has been a server such as
the DGX H100: {n} GPUs on one baseboard, joined by {switches} NVSwitch
chips. Every GPU has a cable-free path through the switches to
every other GPU, one hop away, at the same speed.

That group of {n} is the server's *scale-up domain*. Anything that
must leave the board goes out through a network card instead.

The links are *NVLink*, Nvidia's own (proprietary) GPU-to-GPU
connection. The switches are *NVSwitch* chips. Together they
merge the {n} GPUs into one large logical node.
]], V) },

    { kind = "diagram", title = "The DGX H100 board", view = "rack",
      cluster = { system = "dgx-h100", gpus = 8 },
      text = fill([[
{n} GPUs, one NVSwitch domain: each GPU reaches each other GPU
at {up} per direction.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Memory-semantic links", text = fill([[
# Not a network, a shared memory
A network moves *messages*: software packs data, a card sends
it, the other side unpacks it. NVLink works differently.

A GPU can read and write another GPU's memory with ordinary load
and store instructions, as if that memory were its own. Links
that carry memory operations like this are called
*memory-semantic*.

With no packing and no software in the way, the {n} GPUs behave
almost as one device with a large, shared pool of memory. That
is what makes them good at work that must talk all the time.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Three generations", text = fill([[
# Per-GPU bandwidth, from the presets
- {row_a}
- {row_h}
- {row_b}

From A100 to B200, NVLink per GPU grew {growth}x. The network
card per GPU grows too, but stays far behind:
on the DGX H100, {up} per direction inside the box against
{out} ({outbits}) out of it, about {ratio}x less.

Vendors print the "both directions" figure ({up2} here). Keep
that in mind: lesson 5 comes back to it.
]], V) },

    { kind = "diagram", title = "Where the time goes", view = "bar",
      cluster = { system = "dgx-h100", gpus = 8 },
      workload = { model = "llama3-8b", batch = 64, mb = 1 },
      mapping = { tp = 8, pp = 1, dp = 1 },
      text = fill([[
Llama 3 8B on one server, split 8 ways by tensor parallelism. Even
on NVLink its all-reduces take {tp_pct}% of the step; over a network
they would take far longer.
]], V) },

    { kind = "text", steps = "paragraphs", title = "What the box is good at", text = [[
# Talk-heavy work belongs inside
Some ways of splitting a model make GPUs exchange data inside
every layer, many times per step:

- *tensor parallelism* cuts each layer's weight matrices into
  slices, so every GPU computes part of every multiplication;
- *expert parallelism* gives each GPU its own experts of a
  mixture-of-experts model and ships each token to the GPU that
  holds the expert it needs.

Both need the fast, memory-semantic links of a scale-up domain.
Lesson 6 measures exactly how much they send.
]] },

    { kind = "text", steps = "paragraphs", title = "Summary", text = fill([[
# What to keep
- A classic AI server is {n} GPUs joined by NVLink through NVSwitch
  chips: one scale-up domain.
- NVLink is memory-semantic: GPUs load and store in each other's
  memory, so the domain acts almost like one device.
- Per direction, a DGX H100 GPU has {up} inside the box and
  {out} out of it, so talk-heavy work must stay inside.
]], V) },

    { kind = "quiz", title = "Check: memory-semantic", text = [[
What makes NVLink "memory-semantic"?
]],
      choices = {
        { text = "A GPU can load from and store to a peer GPU's memory directly.",
          correct = true,
          explain = "Yes: no packets to build, so the GPUs act almost as one." },
        { text = "It is made of memory chips instead of wires.",
          correct = false,
          explain = "It is a link; the name is about what it carries." },
        { text = "It remembers the data it sent, in case it must resend.",
          correct = false,
          explain = "That is retransmission, a network feature, not this one." },
        { text = "It only works between GPUs on different servers.",
          correct = false,
          explain = "The opposite: NVLink joins GPUs inside one scale-up domain." },
      } },
  },
}
