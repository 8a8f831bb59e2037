"""The cube-face model: the committed ONNX file, its card, and the code that renders
synthetic training data, trains and exports it (training needs the ``train`` extra)."""
