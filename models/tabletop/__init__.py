"""Training scenes that look like real tables: cubes in 3D seen through a pinhole camera.

    from models.tabletop import render
    scene = render("tray", 3, split="train", frame=(640, 480))

Kinds: ``tray`` (4x4, 5x5 or 6x6 by ``seed % 3``, the game's real cube set rolled),
``loose`` (12-16 cubes, some in touching rows and blocks), ``crossword`` (an Ad-Lib
crossword at any turn, the unused cubes beside it), ``single`` (one cube a player, one to
four, thrown apart to see who starts) and ``empty`` (a bare table or an empty tray:
negatives).

Each cube is a box with rounded edges standing on the table or in a tray's cell; its top and
the sides the camera sees are painted with their own faces of the die, lit by one or two
lights with highlights, and cast shadows. The camera looks from straight above to 50 degrees
off (a phone held low; a tray to 45), at any turn, from near enough for the cubes to fill
the frame or far enough for them to take a tenth of it, each cube's top 2.5-25 % of the
photo's longer side wide (40-400 pixels of 1600 x 1200). The ground truth
(``models.scenes.Scene``) gives every cube's top corners in the final image (after lens
distortion and any change of aspect ratio), clockwise from the print's own top left, the
face, its turn, its cell as the image shows it, the share of the top that nothing hides, and
the side faces in view.

Splits (the same (kind, seed, split) always gives the same scene; each split draws from a
random stream of its own, so no seed repeats a scene of another split):

- ``train``: the face renderer's training fonts (``models/fonts/SOURCES.txt``, split
  ``train``), colours from the even 15-degree hue bins and the even tenths of the cube-body
  scale (white 0 .. yellowed 1), the training textures.
- ``val``: drawn exactly as ``train`` (the same fonts, colours and textures), from its own
  stream: for validating a model trained on ``train``.
- ``unseen``: what training never uses: the held-out fonts (split ``val`` in SOURCES.txt),
  inks, trays and cube bodies from the odd bins only, and the held-out textures.

Nothing here changes ``models.scenes`` or ``models.sidescene``, whose scenes the reader's
held-out tests use.
"""

from models.tabletop.kinds import LAYOUTS
from models.tabletop.looks import SPLITS
from models.tabletop.scene import render

KINDS = tuple(LAYOUTS)

__all__ = ["KINDS", "SPLITS", "render"]
