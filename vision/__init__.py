"""The reader: image in, faces with positions and confidences out."""
