import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
# Triton 3.9 warns about a changing default on every compile
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
