"""TravelBench: ten validated travel tools over a sandbox (cache, simulator, offline world), three
subsets (single-turn, multi-turn, unsolvable), a calibrated LLM judge and the official scoring."""
