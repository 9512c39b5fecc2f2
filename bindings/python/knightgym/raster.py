"""Images of states as RGB arrays (uint8 [H, W, 3]): the SVG of knightgym.svg, drawn
by cairosvg (Debian's python3-cairosvg) and read back by Pillow. What render_mode
"rgb_array" returns, and what video recorders (Gymnasium's RecordVideo, SB3's
VecVideoRecorder) write.

The notes under the board (turn, FEN, tallies) are left out, so that every frame of a
game has the same size, as a video needs: the board, its pieces, the last move and the
pieces held off it.
"""

import io
import warnings

import numpy as np

from knightgym import svg
from knightgym._optional import extra


def rgb_array(state):
    """The picture of ``state`` (a knightgym.State) as uint8 [H, W, 3]."""
    with extra("render", __name__):  # imported here: only rendering needs them
        with warnings.catch_warnings():  # Debian's cairosvg 2.5 calls a deprecated locale
            warnings.filterwarnings("ignore", "Use setlocale", DeprecationWarning)  # function
            import cairosvg
        from PIL import Image

    png = cairosvg.svg2png(bytestring=svg.draw(state, notes=False).encode())
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"))
