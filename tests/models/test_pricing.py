"""Prices: a models file's price wins, else genai-prices' bundled table, else unknown — and an
unknown price is reported as "unknown" with one warning, never as $0."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import genai_prices
import pytest
from typer.testing import CliRunner

from lifebench.cli import app
from lifebench.messages import Usage
from lifebench.models import Price
from lifebench.models._convert import parse_completion
from lifebench.models._price import LibraryPrice, Unpriced, pricing_for
from lifebench.testing.mock_openai import MockOpenAIServer, MockServerThread, completion_response

NOON = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)


def _library(model: str, **kwargs: Any) -> float:
    usage = genai_prices.Usage(input_tokens=1000, output_tokens=500)
    return float(
        genai_prices.calc_price(usage, model, genai_request_timestamp=NOON, **kwargs).total_price
    )


@pytest.mark.parametrize(
    ("model", "url", "provider"),
    [
        ("gpt-4.1", "https://api.openai.com/v1", "openai"),
        ("gpt-4o-mini", "https://api.openai.com/v1", "openai"),
        ("deepseek-chat", "https://api.deepseek.com/v1", "deepseek"),
        ("openai/gpt-4.1", "https://openrouter.ai/api/v1", "openrouter"),
        # a gateway the table does not know, to a model it knows: priced by the model id
        ("gpt-4.1", "https://llm-gateway.example.com/v1", "openai"),
    ],
)
def test_known_models_are_priced_by_the_library(model: str, url: str, provider: str) -> None:
    pricing = pricing_for(model, url, now=lambda: NOON)
    assert isinstance(pricing, LibraryPrice) and pricing.provider_id == provider
    cost = pricing.cost(1000, 500)
    assert cost is not None and cost > 0
    assert cost == _library(model, provider_id=provider)
    assert pricing.source.startswith(f"genai-prices {genai_prices.__version__}: {provider} ")


def test_the_price_is_that_of_the_time_of_the_call() -> None:
    """DeepSeek charges less off-peak (16:30-00:30 UTC in the table): the clock decides."""
    peak = pricing_for("deepseek-chat", "https://api.deepseek.com/v1", now=lambda: NOON)
    night = pricing_for(
        "deepseek-chat",
        "https://api.deepseek.com/v1",
        now=lambda: datetime(2026, 1, 15, 17, 0, tzinfo=UTC),
    )
    assert isinstance(peak, LibraryPrice) and isinstance(night, LibraryPrice)
    assert peak.cost(1000, 500) == _library("deepseek-chat", provider_id="deepseek")
    assert night.cost(1000, 500) < peak.cost(1000, 500)


def test_the_default_clock_is_utc() -> None:
    pricing = pricing_for("gpt-4.1", "https://api.openai.com/v1")
    assert isinstance(pricing, LibraryPrice)
    assert pricing.now().utcoffset() == timedelta(0)  # an aware time: off-peak hours are UTC


def test_credentials_in_the_url_never_reach_the_source() -> None:
    pricing = pricing_for("gpt-4.1", "https://user:sk-SECRET@api.openai.com/v1?api-key=sk-Q")
    assert isinstance(pricing, LibraryPrice) and "SECRET" not in repr(pricing)
    assert "sk-Q" not in pricing.source and "SECRET" not in pricing.source


@pytest.mark.parametrize(
    ("model", "url"),
    [
        ("Qwen/Qwen3-32B", "http://localhost:8000/v1"),  # self-hosted: no per-token price
        ("gpt-4.1", "http://127.0.0.1:8000/v1"),  # even a known id, served here
        ("gpt-4.1", "http://10.1.2.3:8000/v1"),
        ("gpt-4.1", "http://gpu-box:8000/v1"),
        ("gpt-4.1", "http://vllm.local:8000/v1"),
        ("gpt-4.1", "http://llm.internal/v1"),
        ("gpt-4.1", "http://box.lan/v1"),
        ("gpt-4.1", "http://169.254.10.1/v1"),  # link-local
        ("gpt-4.1", "http://[::1]:8000/v1"),
        ("gpt-4.1", "http:///v1"),  # no host at all
        ("my-finetune-7b", "https://api.example.com/v1"),  # unknown to the table
    ],
)
def test_self_hosted_or_unknown_models_are_unpriced(model: str, url: str) -> None:
    pricing = pricing_for(model, url)
    assert isinstance(pricing, Unpriced) and pricing.source is None
    assert pricing.cost(1000, 500) is None


def test_an_explicit_price_wins_even_zero() -> None:
    for price in (Price(input_per_mtok=1.0, output_per_mtok=3.0), Price()):
        assert pricing_for("gpt-4.1", "https://api.openai.com/v1", price) is price
        assert pricing_for("Qwen/Qwen3-32B", "http://localhost:8000/v1", price) is price
    assert Price().source == "models file"


def _body(usage: dict[str, int] | None) -> str:
    answer = completion_response("hi")
    if usage is None:
        answer.pop("usage", None)
    else:
        answer["usage"] = usage
    return json.dumps(answer)


def test_each_call_records_its_cost_or_that_it_is_unpriced() -> None:
    body = _body({"prompt_tokens": 1000, "completion_tokens": 500})
    library = pricing_for("gpt-4.1", "https://api.openai.com/v1", now=lambda: NOON)
    priced = parse_completion(body, library, 0).usage
    assert priced is not None and priced.unpriced == 0
    assert priced.cost == _library("gpt-4.1", provider_id="openai")
    assert priced.priced_by == (library.source,)

    explicit = parse_completion(body, Price(input_per_mtok=2.0, output_per_mtok=8.0), 0).usage
    assert explicit is not None and explicit.priced_by == ("models file",)
    assert explicit.cost == (1000 * 2.0 + 500 * 8.0) / 1_000_000

    unknown = parse_completion(body, Unpriced("no price"), 0).usage
    assert unknown is not None and (unknown.unpriced, unknown.cost, unknown.priced_by) == (1, 0, ())

    # no usage reported: tokens unknown, counted there (usage_missing), not as unpriced
    missing = parse_completion(_body(None), library, 0).usage
    assert missing is not None and (missing.usage_missing, missing.unpriced) == (1, 0)


def test_usage_sums_keep_unpriced_calls_and_sources() -> None:
    a = Usage(cost=0.5, priced_by=("models file",))
    b = Usage(unpriced=1)
    c = Usage(cost=0.25, priced_by=("genai-prices 0.2.3: openai gpt-4.1",))
    total = a + b + c + Usage.zero()
    assert total.unpriced == 1 and total.cost == 0.75 and total.calls == 3
    assert total.priced_by == ("genai-prices 0.2.3: openai gpt-4.1", "models file")


# --- end to end: MODEL@URL runs print "unknown", warn once, and never $0 ------------------------


def _responder(body: dict[str, Any]) -> dict[str, Any]:
    if body.get("tools"):
        return completion_response("Done. Anything else?")
    said = sum(1 for m in body["messages"] if m["role"] == "assistant")
    return completion_response("###STOP###" if said else "Can you check my orders?")


def _run(tmp_path: Path, *extra: str) -> tuple[int, str, str, dict[str, Any]]:
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app,
        ["run", "--task-set", "demo", "--num-tasks", "2", "--out", str(out), *extra],
        env={"OPENAI_API_KEY": "sk-test"},
    )
    report = json.loads((out / "report.json").read_text()) if (out / "report.json").exists() else {}
    return result.exit_code, result.stdout, result.stderr, report


def test_model_at_url_without_a_price_reports_unknown(tmp_path: Path) -> None:
    with MockServerThread(MockOpenAIServer(responder=_responder)) as server:
        spec = f"mock-model@{server.base_url}"
        code, out, err, report = _run(
            tmp_path, "--agent", "llm", "--user", "llm", "--agent-model", spec, "--user-model", spec
        )
    assert code == 0, out + err
    cost = report["cost"]
    assert cost["agent"] is None and cost["user"] is None and cost["sum"] is None
    assert cost["total"] is None and cost["per_success"] is None
    assert cost["unpriced"]["agent"] > 0 and cost["unpriced"]["user"] > 0
    warnings = [w for w in report["warnings"] if w.startswith("cost unknown")]
    assert len(warnings) == 1 and "agent" in warnings[0] and "user" in warnings[0]
    assert out.count("cost unknown for") == 1
    usage = out.split("Usage per simulation")[1]
    rows = {line.split("│")[1].strip(): line for line in usage.splitlines() if "│" in line}
    for role in ("agent", "user", "total", "run total / per success"):
        assert "unknown" in rows[role] and "$" not in rows[role], role
    assert "$0.0000" in rows["judge"]  # no judge calls: nothing spent, known
    assert "prices — agent: unknown" in out  # the table's caption: the source of every role

    run_dir = str(tmp_path / "run")
    html, md = tmp_path / "r.html", tmp_path / "r.md"
    runner = CliRunner()
    assert runner.invoke(app, ["report", run_dir, "--html", str(html)]).exit_code == 0
    assert runner.invoke(app, ["report", run_dir, "--markdown", str(md)]).exit_code == 0
    for text in (html.read_text(), md.read_text()):
        assert "agent: unknown (" in text and "user: unknown (" in text
    section = md.read_text().split("## Activity, cost and tool errors")[1]
    header, row = [line for line in section.splitlines() if line.startswith("| run | ")][:2]
    assert "agent cost" in header
    cells = [c.strip() for c in row.split("|")[1:-1]]
    assert cells[4:7] == ["unknown", "unknown", "$0.0000"]  # agent, user, judge (no calls)
    assert cells[8:] == ["unknown", "unknown", "unknown"]  # per simulation, total, per success


def test_a_models_file_price_prices_the_run(tmp_path: Path) -> None:
    with MockServerThread(MockOpenAIServer(responder=_responder)) as server:
        models = tmp_path / "models.yaml"
        entry = {
            "model": "mock-model",
            "base_url": server.base_url,
            "api_key_env": None,
            "price": {"input_per_mtok": 1.0, "output_per_mtok": 2.0},
        }
        models.write_text(json.dumps({"models": {"m": entry}}))
        code, out, err, report = _run(
            tmp_path, "--agent", "llm", "--user", "llm", "--models", str(models),
            "--agent-model", "m", "--user-model", "m", "--quiet",
        )  # fmt: skip
    assert code == 0, out + err
    cost = report["cost"]
    assert cost["unpriced"] == {} and cost["sum"] > 0
    assert cost["priced_by"] == {"agent": ["models file"], "user": ["models file"]}
    assert not [w for w in report["warnings"] if w.startswith("cost unknown")]
    assert "cost $" in out  # the headline
    md = tmp_path / "r.md"
    assert (
        CliRunner().invoke(app, ["report", str(tmp_path / "run"), "--markdown", str(md)]).exit_code
        == 0
    )
    assert "agent: models file; user: models file" in md.read_text()
