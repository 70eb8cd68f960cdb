"""The battle map every campaign has, whatever its game: scenes, images, grid, tokens, fog, drawings.

Pure like the rest of `app/rules`: the images themselves live in the store and the masked image a player
is sent is made in `app/services/map_images.py`; here a scene names its image by content hash. The layer
that plugs into every campaign is `part.PART`.
"""
