import sys

from incan_companion.cli import main

sys.exit(main())
