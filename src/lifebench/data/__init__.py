"""The official data sets: a pinned catalogue, verified resumable downloads (``lifebench data
get``), and recognising which suite a data file belongs to (``detect_suite``)."""

from lifebench.data._catalog import (
    BASE_URL_ENV,
    DATASETS,
    DEFAULT_BASE_URL,
    DataFile,
    Dataset,
    Licence,
    ManualStep,
)
from lifebench.data._detect import detect_suite, detect_suite_of, suites_of
from lifebench.data._fetch import DataError, Digest, FileOutcome, digest_file, fetch_file
from lifebench.data._get import GetResult, base_url, by_hand, dataset, get_dataset

__all__ = [
    "BASE_URL_ENV",
    "DATASETS",
    "DEFAULT_BASE_URL",
    "DataError",
    "DataFile",
    "Dataset",
    "Digest",
    "FileOutcome",
    "GetResult",
    "Licence",
    "ManualStep",
    "base_url",
    "by_hand",
    "dataset",
    "detect_suite",
    "detect_suite_of",
    "digest_file",
    "fetch_file",
    "get_dataset",
    "suites_of",
]
