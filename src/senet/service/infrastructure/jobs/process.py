"""``python -m senet.service.infrastructure.jobs.process FD NICE WARM``: one worker process of the local job
queue (:func:`senet.service.infrastructure.jobs.local.worker_main`), started by the server."""

import sys

from .local import worker_main

if __name__ == "__main__":
    worker_main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1")
