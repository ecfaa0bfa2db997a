#!/bin/sh
# SPDX-License-Identifier: MIT
# eval — the built binary's `scalelab eval`: exit statuses, one-line errors
# on stderr with nothing on stdout, the JSON contract on one line, --list.
# Usage: sh tests/suites/eval.sh BINARY   (cwd = repository root)
set -u
bin=${1:?usage: eval.sh BINARY}
T=$(mktemp -d "${TMPDIR:-/tmp}/scalelab-eval.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

bad() { echo "eval: FAIL: $*"; fail=$((fail + 1)); }

# ok NAME PATTERN ARGS...: exit 0, nothing on stderr, stdout matches PATTERN
ok() {
  name=$1 pat=$2; shift 2
  timeout 20 "$bin" "$@" >"$T/out" 2>"$T/err"; rc=$?
  if [ $rc -ne 0 ]; then bad "$name: exit $rc, want 0: $(head -c 200 "$T/err")"; return; fi
  if [ -s "$T/err" ]; then bad "$name: stderr not empty: $(head -c 200 "$T/err")"; return; fi
  if ! grep -Eq -- "$pat" "$T/out"; then bad "$name: stdout lacks /$pat/"; return; fi
  pass=$((pass + 1))
}

# usage NAME PATTERN ARGS...: exit 2, stdout empty, one stderr line
# "scalelab eval: ..." matching PATTERN
usage() {
  name=$1 pat=$2; shift 2
  timeout 20 "$bin" "$@" >"$T/out" 2>"$T/err"; rc=$?
  if [ $rc -ne 2 ]; then bad "$name: exit $rc, want 2"; return; fi
  if [ -s "$T/out" ]; then bad "$name: printed on stdout"; return; fi
  lines=$(wc -l <"$T/err")
  if [ "$lines" -ne 1 ]; then bad "$name: $lines lines on stderr, want 1"; return; fi
  if ! grep -q '^scalelab eval: ' "$T/err"; then bad "$name: $(cat "$T/err")"; return; fi
  if ! grep -Eq -- "$pat" "$T/err"; then bad "$name: /$pat/ not in: $(cat "$T/err")"; return; fi
  pass=$((pass + 1))
}

ok "default" "^bottleneck: " eval
ok "table units" "step time +[0-9.]+ (s|ms|min)" eval --system dgx-h100 --model llama3-70b
ok "json one line" '^\{"system":"dgx-h100".*"step_s":[0-9].*\}$' \
  eval --system dgx-h100 --model llama3-70b --json
ok "json keys" '"breakdown":\{"compute_s":[^}]*"tp_s":[^}]*"pp_s":[^}]*"bubble_s":[^}]*"dp_s":[^}]*"ep_s":' \
  eval --system gb200-nvl72 --model deepseek-v3 --json
ok "json bytes" '"bytes":\{"scale_up":[0-9.e+-]+,"scale_out":[0-9.e+-]+,"scale_across":[0-9.e+-]+\}' \
  eval --format json
ok "json fits bool" '"fits":(true|false),' eval --json
ok "json contract" '"tokens_per_s":.*"tflops_per_gpu":.*"hw_tflops_per_gpu":.*"mfu":.*"mem_per_gpu_bytes":.*"bottleneck":"' \
  eval --json
ok "derived dp" '"dp":4,' eval --system dgx-a100 --gpus 64 --model gpt3-175b --tp 8 --pp 2 --json
ok "sites" 'scale-across: 2 sites joined by 1.25 TB/s' \
  eval --system dgx-h100 --gpus 512 --sites 2 --across "10 Tb/s" --model llama3-70b
ok "does not fit still answers" '"fits":false' eval --params 1e15 --json
# activations sent to host memory that does not hold them: HBM fits, the
# host line and the reason say which memory is short
ok "host memory short" 'host memory +[0-9.]+ GB of 240 GB: DOES NOT FIT' \
  eval --system gb300-nvl72 --gpus 64 --model llama3-70b --seq 8192 --batch 256 --mb 2 --tp 1 --pp 1 --zero 3 --recompute none --offload activations
ok "host memory short, reason" 'bottleneck: does not fit: offloads .* to host memory' \
  eval --system gb300-nvl72 --gpus 64 --model llama3-70b --seq 8192 --batch 256 --mb 2 --tp 1 --pp 1 --zero 3 --recompute none --offload activations
ok "list" 'gb300-nvl72' eval --list
ok "list bits and bytes" '800 Gb/s = 100 GB/s' eval --list
ok "help" '--interleave' eval --help
ok "in the command table" 'eval' --help
# one search for eval and sweep: batch 1 on 128 GPUs needs DP 1, so TP x PP =
# 128 with TP dividing Llama 3 8B's 32 heads and PP at most its 32 layers:
# TP 4 PP 32, TP 8 PP 16, TP 16 PP 8, TP 32 PP 4 (TP spilling out of the
# 2-GPU domains is legal, only slow)
ok "sweep batch 1" ' TP8 PP16 DP1 ' \
  sweep --gpus 128 --batch 1 --model llama3-8b --domain 2 --top all
ok "sweep batch 1 count" ' of the 4 ranked fit' \
  sweep --gpus 128 --batch 1 --model llama3-8b --domain 2
ok "folded experts" '"ep":64,.*"etp":1,"edp":1' \
  eval --gpus 64 --model deepseek-v3 --ep 64 --tp 2 --dp 32 --json
ok "sweep reports the settings" '"best":\{"rank":1,"mapping":\{[^}]*"zero":[0-3],[^}]*"recompute":"(none|selective|full|[a-z_]+(,[a-z_]+)*)","recompute_layers":[0-9]+,"seq_parallel":(true|false),"tp_overlap":(true|false)\}' \
  sweep --system dgx-h100 --gpus 64 --model llama3-70b --json --top 1
ok "sweep pins a setting given" '"zero":1,[^}]*"recompute":"none"' \
  sweep --system dgx-h100 --gpus 64 --model llama3-8b --zero 1 --recompute none --json --top 1
ok "eval batch 1" '"dp":1,' eval --gpus 128 --batch 1 --model llama3-8b --domain 2 --json

# serving: the decode step per token, its parts, and JSON with the same parts
ok "serve table" '^  time per token +[0-9.]+ ms' \
  eval --serve --system dgx-h100 --gpus 8 --model llama3-70b --tp 8 --precision fp8 --batch 16
ok "serve parts" '^  network +[0-9.]+ (ms|us|µs)' \
  eval --serve --system dgx-h100 --gpus 16 --model llama3-70b --tp 16 --precision fp8
ok "serve json" '^\{"system":"dgx-h100".*"batch":16,"context":4096,"token_s":[0-9].*"parts":\{"weights_s":[^}]*"kv_s":[^}]*"tp_s":[^}]*"network_s":[0-9.e+-]+\}\}$' \
  eval --serve --system dgx-h100 --gpus 8 --model llama3-70b --tp 8 --batch 16 --context 4096 --json

usage "unknown flag" "unknown flag '--bogus'" eval --bogus
usage "missing value" "needs a value" eval --tp
usage "serve batch" "--batch must be at least 1" eval --serve --batch 0
usage "context alone" "--context needs --serve" eval --context 5
usage "bits vs bytes" "did you mean 1.8 TB/s" eval --up "1.8 TB"
usage "10^9 GPUs" "more than scalelab models" eval --gpus 1000000000
usage "not whole" "does not divide the 64 GPUs" eval --gpus 64 --tp 3
usage "world" "= 32 GPUs, but the cluster has 64" eval --gpus 64 --tp 8 --pp 2 --dp 2
usage "heads" "TP 64 does not divide the 96 attention heads" \
  eval --system dgx-a100 --gpus 64 --model gpt3-175b --tp 64 --pp 1
usage "experts" "EP 3 does not divide the 256 experts" \
  eval --gpus 24 --model deepseek-v3 --tp 8 --pp 1 --ep 3
usage "batch" "global batch 100 is not a multiple" eval --gpus 64 --tp 8 --pp 1 --batch 100
# 16,416 = 2^5 x 3^3 x 19 GPUs: TP <= 32 (a power of 2 dividing the 128
# heads) and PP <= 126 leave an odd factor in every DP (the least is 9 = 16,416
# / (32 x 57)), so none splits 2,048 = 2^11; 2,043 = 9 x 227 and 2,052 = 9 x
# 228 are the nearest multiples of a DP (2,044..2,051 share no factor >= 9
# with 16,416)
usage "no mapping splits the batch" \
  "no mapping of 16,416 GPUs splits a global batch of 2,048 sequences; the nearest batches that work are 2,043 and 2,052" \
  eval --system gb200-nvl72 --gpus 16416 --model llama3-405b --batch 2048
usage "format" "json or text" eval --format xml
usage "control characters" "control character" eval --up "$(printf '1 \033[31mX')"

echo "eval: $pass passed, $fail failed"
[ $fail -eq 0 ]
