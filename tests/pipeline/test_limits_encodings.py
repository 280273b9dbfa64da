"""Non-UTF-8 input is decoded when its encoding can be detected; binary input fails clearly."""
from __future__ import annotations

import pytest

from extractor import api
from extractor.errors import UnreadableDocument

TEXT = ("Résumé of the café benchmark: the naïve baseline served 950 tokens/s, "
        "while the tuned server reached 1,900 tokens/s on the same GPU.\n") * 4


def _spans_ok(text: str, rec) -> None:
    assert rec.claims
    for c in rec.claims:
        assert text[c.span[0]:c.span[1]] == c.quote


@pytest.mark.parametrize("encoding", ["latin-1", "cp1252", "utf-16"])
def test_detected_encodings_decode_to_the_same_text(tmp_path, encoding):
    text = TEXT + ("Quotes “like these” and an ellipsis… cost 3 € per run.\n" if encoding == "cp1252" else "")
    f = tmp_path / f"post-{encoding}.md"
    f.write_bytes(text.encode(encoding))
    decoded, _ = api.read_document(f)
    assert decoded == text
    _spans_ok(decoded, api.extract_path(f))


def test_utf8_bom_is_stripped(tmp_path):
    f = tmp_path / "bom.md"
    f.write_bytes(b"\xef\xbb\xbf" + TEXT.encode("utf-8"))
    text, _ = api.read_document(f)
    assert text == TEXT


def test_binary_content_is_a_clear_error(tmp_path):
    f = tmp_path / "image.md"
    f.write_bytes(bytes(range(256)) * 40)
    with pytest.raises(UnreadableDocument, match=r"image\.md: binary content"):
        api.extract_path(f)


def test_undetectable_bytes_are_a_clear_error():
    junk = bytes([0x81, 0x8D, 0x8F, 0x90, 0x9D, 0xFF, 0xFE, 0xC0]) * 300
    try:
        text = api.decode(junk, "junk.txt")
    except UnreadableDocument as err:
        assert err.doc == "junk.txt" and "encoding" in err.reason
    else:  # a detector may accept it; then it must be a real decoding of every byte
        assert isinstance(text, str) and text
