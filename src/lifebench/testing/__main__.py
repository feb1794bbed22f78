"""``python -m lifebench.testing``: the loopback mock OpenAI server as a process of its own
(see :func:`lifebench.testing.mock_openai.main`)."""

import sys

from lifebench.testing.mock_openai import main

sys.exit(main())
