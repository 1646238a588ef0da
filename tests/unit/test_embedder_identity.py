"""Which embedders may share a space (engram/embedder_identity.py): torch and onnx fp32 are one family; int8 or
another model is not."""

from __future__ import annotations

import pytest

from engram.embedder_identity import EmbedderIdentity


def test_torch_and_onnx_fp32_are_one_family_int8_and_another_model_are_not() -> None:
    torch = EmbedderIdentity("torch", "fp32", "12a627c3b64aa9ea")
    fp32 = EmbedderIdentity("onnx", "fp32", "12a627c3b64aa9ea")
    int8 = EmbedderIdentity("onnx", "int8", "12a627c3b64aa9ea")
    other = EmbedderIdentity("onnx", "fp32", "0000000000000000")
    assert torch.family == fp32.family == "12a627c3b64aa9ea/fp32"
    assert int8.family != fp32.family and other.family != fp32.family
    # torch records the variant it was configured with; its weights are fp32 whatever that says.
    assert EmbedderIdentity("torch", "int8", "12a627c3b64aa9ea").family == torch.family


def test_an_identity_round_trips_through_its_properties_and_a_forged_family_is_refused() -> None:
    int8 = EmbedderIdentity("onnx", "int8", "12a627c3b64aa9ea")
    assert EmbedderIdentity.of(int8.properties()) == int8
    with pytest.raises(ValueError, match="does not match"):
        EmbedderIdentity.of({**int8.properties(), "family": "12a627c3b64aa9ea/fp32"})
    with pytest.raises(KeyError):
        EmbedderIdentity.of({"backend": "onnx", "variant": "int8"})
    assert "onnx int8" in int8.describe() and "torch (model" in EmbedderIdentity("torch", "fp32", "m").describe()
