import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

posix_only = pytest.mark.skipif(sys.platform == "win32" or os.name != "posix",
                                reason="pseudo-terminals are POSIX only")


@pytest.fixture
def sim():
    """A simulated die reader on a pty with a fast heartbeat; removed after the test."""
    if os.name != "posix":
        pytest.skip("pseudo-terminals are POSIX only")
    from desktop.die_sim import DieSimulator

    device = DieSimulator(heartbeat_ms=60, resend_ms=30, seed=7)
    device.start()
    yield device
    device.close()


FAST = dict(handshake_timeout=1.0, hello_every=0.1, backoff=(0.02, 0.1), read_timeout=0.01)
"""Link timings for tests: quick to find, quick to give up, quick to retry."""
