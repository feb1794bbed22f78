"""The official data sets: which files, from which public repository at which commit, where
they go, and how each is verified.

Every file is pinned twice where we can: its SHA-256 and size (measured on the repository at the
pinned commit), and always its **git blob id** (the SHA-1 git names the file's content by,
read from the commit's tree). Files of 4 MiB and more could not be read when this catalogue was
written, so for them the blob id is the pin: a download is accepted only when
``sha1("blob <size>\\0" + content)`` equals it, and its SHA-256 is then printed and recorded
beside the file. Data that no repository holds (FlowBench's own turn and session files, on
Google Drive) is listed as a manual step, never downloaded blindly.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_BASE_URL = "https://raw.githubusercontent.com"
"""Where pinned files are downloaded from: ``{base}/{owner}/{repo}/{commit}/{path}``."""

BASE_URL_ENV = "LIFEBENCH_DATA_URL"
"""Environment variable that replaces :data:`DEFAULT_BASE_URL` (a mirror, or a test server)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Licence(_Frozen):
    """The terms a data set is distributed under, as its repository states them."""

    name: str = Field(description="Short name, e.g. 'CC BY-NC 4.0'.")
    url: str = Field(description="Where the full text is (at the pinned commit).")
    summary: str = Field(description="What it allows, in one sentence.")


class DataFile(_Frozen):
    """One file of a repository at a pinned commit and where it is put."""

    repo: str = Field(description="owner/name on GitHub.")
    commit: str = Field(pattern=r"^[0-9a-f]{40}$", description="The pinned commit.")
    path: str = Field(description="Path inside the repository.")
    dest: str = Field(description="Path under the data set's folder.")
    git_blob: str = Field(pattern=r"^[0-9a-f]{40}$", description="Git blob id at the commit.")
    sha256: str | None = Field(
        None, pattern=r"^[0-9a-f]{64}$", description="SHA-256, when it could be measured."
    )
    size: int | None = Field(None, ge=0, description="Bytes, when they could be measured.")
    extract_to: str | None = Field(
        None,
        description="For a zip archive: the folder (under the data set's folder) that receives "
        "the archive's data folder.",
    )
    what: str = Field("", description="What the file holds.")

    def url(self, base: str) -> str:
        """The download URL under ``base`` (default: raw.githubusercontent.com)."""
        return f"{base.rstrip('/')}/{self.repo}/{self.commit}/{self.path}"

    @property
    def pin(self) -> str:
        """How the content is pinned, for messages."""
        if self.sha256:
            return f"sha256 {self.sha256}"
        return f"git blob {self.git_blob}, i.e. sha1 of 'blob SIZE\\0' + content"


class ManualStep(_Frozen):
    """Data that cannot be downloaded by a pinned URL: what to fetch by hand and where it goes."""

    what: str
    source: str = Field(description="Where to get it.")
    put: str = Field(description="Where to put it, under the data set's folder.")
    pin: str = Field(description="How it is (or cannot be) verified.")


class Dataset(_Frozen):
    """One benchmark's official data."""

    name: str
    suite: str = Field(description="The lifebench suite that runs it.")
    title: str
    folder: str = Field(description="Folder under --dest that receives the files.")
    licence: Licence
    files: tuple[DataFile, ...]
    manual: tuple[ManualStep, ...] = ()
    next_steps: tuple[str, ...] = Field(
        (), description="Commands that use the data (DEST stands for the --dest folder)."
    )


_VITA = "meituan-longcat/vitabench"
_VITA_COMMIT = "96f3b8529d8ea38d330de2405af7e32a1454f6cd"
_TRAVEL = "small-xiangcheng/TravelBench"
_TRAVEL_COMMIT = "445a29d9a9b6457fc95fe647c532b6b79e21c43f"
_FLOW = "MiuLab/FlowSwitch"
_FLOW_COMMIT = "f1dfe7fe668fcb7c67c24b22749e7c0aa007342e"


class _Pinned:
    """Builds the :class:`DataFile` entries of one repository at one commit."""

    def __init__(self, repo: str, commit: str) -> None:
        self.repo, self.commit = repo, commit

    def __call__(
        self,
        path: str,
        dest: str,
        blob: str,
        sha256: str | None = None,
        size: int | None = None,
        what: str = "",
        extract_to: str | None = None,
    ) -> DataFile:
        return DataFile(
            repo=self.repo,
            commit=self.commit,
            path=path,
            dest=dest,
            git_blob=blob,
            sha256=sha256,
            size=size,
            what=what,
            extract_to=extract_to,
        )


_vita = _Pinned(_VITA, _VITA_COMMIT)
_travel = _Pinned(_TRAVEL, _TRAVEL_COMMIT)
_flow = _Pinned(_FLOW, _FLOW_COMMIT)


_D = "data/vita/domains"

VITABENCH = Dataset(
    name="vitabench",
    suite="vita",
    title="VitaBench: the 400 official tasks (cross-scenario, delivery, in-store, OTA), en and zh",
    folder="vitabench",
    licence=Licence(
        name="MIT",
        url=f"https://github.com/{_VITA}/blob/{_VITA_COMMIT}/LICENSE",
        summary="the repository (code and data) is under the MIT licence: use, copy, modify "
        "and distribute, keeping the copyright and licence notice",
    ),
    files=(
        _vita(
            "LICENSE",
            "LICENSE",
            "b6459d27f6d65bdb0a8bc92d4579d211e5d46207",
            "08da3ef45b685007c851f1f16b911d8a078360559dcb0aad3bcbd1162ee6c238",
            1099,
            "the licence",
        ),
        _vita(
            f"{_D}/cross_domain/tasks_en.json",
            "cross/tasks_en.json",
            "440ff4a5db00847122aae5b18690b93408473bd9",
            what="100 cross-scenario tasks (English)",
        ),
        _vita(
            f"{_D}/delivery/tasks_en.json",
            "delivery/tasks_en.json",
            "803c6a28452d42da437254e35a93bbe63db968b2",
            "541f531df4bb414055c6fb7a7b78662e5504ae0a5a92a66ec09448bf2c8bc6ef",
            2056473,
            "100 delivery tasks (English)",
        ),
        _vita(
            f"{_D}/instore/tasks_en.json",
            "instore/tasks_en.json",
            "744adaabf2913ed6eb8dd319a44c0b4aecc581d6",
            "8e3ac7b53501d211a5261ef4e8ad9eb46bd304bd6a77794dea860f107aebaa95",
            3828442,
            "100 in-store tasks (English)",
        ),
        _vita(
            f"{_D}/ota/tasks_en.json",
            "ota/tasks_en.json",
            "40bc7f98867e95921d7ae1e4ee995667caf99bf3",
            what="100 online-travel (OTA) tasks (English)",
        ),
        _vita(
            f"{_D}/cross_domain/tasks.json",
            "cross/tasks.json",
            "62484752dacff51d0b5cf261d489608e84f5e957",
            what="100 cross-scenario tasks (Chinese)",
        ),
        _vita(
            f"{_D}/delivery/tasks.json",
            "delivery/tasks.json",
            "4b8f2843f2a37c00b65d66dfc3ce1d60ef1c7df1",
            "5a122f783d2b501f063c718b8dc9a637de573b90c9a87a7f9f4336b1ea9c9404",
            2536391,
            "100 delivery tasks (Chinese)",
        ),
        _vita(
            f"{_D}/instore/tasks.json",
            "instore/tasks.json",
            "91f424f877c782b370f5b0889ca17c43f62bf1bb",
            what="100 in-store tasks (Chinese)",
        ),
        _vita(
            f"{_D}/ota/tasks.json",
            "ota/tasks.json",
            "a819ccadef093f71befdab9127890291d7b012d3",
            what="100 online-travel (OTA) tasks (Chinese)",
        ),
    ),
    next_steps=(
        "lifebench tasks validate DEST/vitabench/delivery/tasks_en.json",
        "lifebench run --suite vita --domain delivery --tasks DEST/vitabench/delivery/tasks_en.json "
        "--agent-model MODEL@URL --user-model MODEL@URL ...   (README: the main job)",
        "lifebench sweep examples/vitabench-full.yaml   (the 400-task evaluation)",
    ),
)

TRAVELBENCH = Dataset(
    name="travelbench",
    suite="travel",
    title="TravelBench: single-turn, multi-turn and unsolvable rows and the official sandbox cache",
    folder="travelbench",
    licence=Licence(
        name="CC BY-NC 4.0",
        url=f"https://github.com/{_TRAVEL}/blob/{_TRAVEL_COMMIT}/datas/LICENSE",
        summary="the data is licensed Creative Commons Attribution-NonCommercial 4.0: "
        "NON-COMMERCIAL use only, with attribution (the code is MIT)",
    ),
    files=(
        _travel(
            "datas/LICENSE",
            "LICENSE",
            "c657cab45c850057a63b3605897f5195f3c4ac02",
            "3711f963c05d0be80d53e5923308a6dee31b203da23435c9cfb7c7b6e4dd5e19",
            19346,
            "the data licence (CC BY-NC 4.0)",
        ),
        _travel(
            "datas/single_turn.jsonl",
            "single_turn.jsonl",
            "325820d57348f2042bf0df857c09168a276698d0",
            "10b0bd2fe9c22ccd7a7dacc5783c828ec5eae2666adca3a893b1e68d5c95ae72",
            351664,
            "single-turn rows",
        ),
        _travel(
            "datas/multi_turn.jsonl",
            "multi_turn.jsonl",
            "eb152d0b3dedc43efdea03a6375446ee065527e5",
            "b52e772e66238194f3f19eb2e3029626e53fbbded822d6757f5351521e519f99",
            2789491,
            "multi-turn rows (with user profiles)",
        ),
        _travel(
            "datas/unsolve.jsonl",
            "unsolve.jsonl",
            "b7e784ac95e9c491257d21d1945d5a3874d69c6e",
            "1980c83504cf20be61bb8e9b30f9e20d410c4eaf06eeb82b214d0bcb150a468a",
            71416,
            "unsolvable rows",
        ),
        _travel(
            "sandbox_cache.zip",
            "sandbox_cache.zip",
            "a2dd30b25ade85a89cf783d7d111125bf14e26cf",
            what="the official sandbox cache (cached tool responses), unpacked to sandbox_cache/",
            extract_to="sandbox_cache",
        ),
    ),
    next_steps=(
        "lifebench tasks validate DEST/travelbench/multi_turn.jsonl",
        "lifebench run --suite travel --tasks DEST/travelbench/multi_turn.jsonl "
        "--sandbox-cache DEST/travelbench/sandbox_cache --agent-model M --user-model U "
        "--judge-model J --tool-model T",
    ),
)

FLOWBENCH = Dataset(
    name="flowbench",
    suite="flow",
    title="FlowBench: the 51 public workflows (knowledge base) and FlowSwitch's turn samples",
    folder="flowbench",
    licence=Licence(
        name="no licence stated",
        url=f"https://github.com/{_FLOW}/tree/{_FLOW_COMMIT}",
        summary="MiuLab/FlowSwitch states no licence for these files (FlowBench's own "
        "repository, AlibabaResearch/DAMO-ConvAI, is MIT but ships no data): all rights stay "
        "with the authors; use them for research and ask the authors before redistributing",
    ),
    files=(
        _flow(
            "data/workflow_final.jsonl",
            "knowledge/workflow_final.jsonl",
            "2ab8767a967e010df943a8a8b7a63551607ca8fd",
            "898927a388fa54b224c5d15ced018b1a11e15f41d8a41c059469ad89531a6338",
            492320,
            "the 51 scenarios: workflows and APIs",
        ),
        _flow(
            "pools/workflow_text.json",
            "knowledge/workflow_text.json",
            "10cef0688c56b73c77dd1d8daf5cfac8cc32c1d9",
            "0f4948d1c06934c2deb988ebc311132be8e421909648d124323eeb845836637f",
            72345,
            "workflows as text",
        ),
        _flow(
            "pools/workflow_code.json",
            "knowledge/workflow_code.json",
            "a9db501f29d8d596a6d41c8a44be60fc31e21f9d",
            "84efe36c0974936467a8e3e6677989aad304d3bb0f4f5e1334d79b9e1b1bd62d",
            107116,
            "workflows as code",
        ),
        _flow(
            "pools/workflow_flowchart.json",
            "knowledge/workflow_flowchart.json",
            "3c005794ba7feb5cfa81c898177766d06fc6b2f0",
            "ccb4d7f1d63ec35fe1278d5cc3cedd4826d08b2d935cdc34cecc2357a192bd5c",
            103388,
            "workflows as flowcharts",
        ),
        _flow(
            "pools/workflow_summary.json",
            "knowledge/workflow_summary.json",
            "c0bc5a4fe299eee4bd52b9986da36ef7e399b68c",
            "89da1554f3ec59a278a02399d17164b07f4d0958a5891e6d72c4668dc2dd1282",
            39740,
            "workflow summaries",
        ),
        _flow(
            "pools/domain_desc.json",
            "knowledge/domain_desc.json",
            "5d54bd9f5cab798ad3424066ef14433f3683bb7e",
            "1cc58427e1143fafa7277b3138e78700c8e17205bb67e51fe0c2a3422282384e",
            3657,
            "domain descriptions",
        ),
        _flow(
            "pools/role_desc.json",
            "knowledge/role_desc.json",
            "12cfeca09cc9d568d5d2c3b3195d47c5c433aab3",
            "a8fd1cea3a59cf10fdd4ae18658485d98f9e98692c01a663cb2aa61038184192",
            10754,
            "role descriptions",
        ),
        _flow(
            "data/sample_input.jsonl",
            "turns/sample_turns.jsonl",
            "be7e38beeaca39ad8ffbaa9367d1d46df21528f9",
            "7ad2448948e1387d89b74eb602e451b18aa4f09c2ae420002bce2353c54dff24",
            51202,
            "10 turn samples (FlowSwitch format)",
        ),
        _flow(
            "data/turn_level_data_final_w_last_workflow.jsonl",
            "turns/turns.jsonl",
            "0e354299c3fae0b7cc2fe6c82da20d3c44925733",
            what="every turn sample of FlowBench's sessions (FlowSwitch format)",
        ),
    ),
    manual=(
        ManualStep(
            what="FlowBench's own turn-level and session-level files (turn_data.zip, "
            "session_data.zip)",
            source="the Google Drive folder named in FlowBench's README: "
            "https://drive.google.com/drive/folders/1PFzA5e-fuKpVZvAHP-otBhWPdU60O3d4",
            put="unpack both archives into the data set's folder: turn_data/ and session_data/",
            pin="not pinned: the folder has no versioned download URL; "
            "`lifebench tasks validate FILE` checks what you put there",
        ),
    ),
    next_steps=(
        "lifebench tasks stats --suite flow DEST/flowbench/knowledge",
        "lifebench run --suite flow --tasks DEST/flowbench/turns/turns.jsonl "
        "--knowledge DEST/flowbench/knowledge --agent-model MODEL@URL",
    ),
)

DATASETS: dict[str, Dataset] = {d.name: d for d in (VITABENCH, TRAVELBENCH, FLOWBENCH)}
"""The data sets ``lifebench data get`` knows, by name."""
