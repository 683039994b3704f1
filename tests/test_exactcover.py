"""The ExactCover model: declaring, Knuth's text format, the checker, bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import csp
from csp import ExactCover, InputError

TINY = "| a tiny XCC problem\na b c | x y\na x:0\nb x:0 y\nc y:1\na b x:1\n"


def test_declare_and_read_back():
    xc = ExactCover(["a", "b"], ["x"])
    k = xc.add_option(["a", ("x", "red")], data="first")
    assert k == 0
    assert xc.add_option(["b", "x"]) == 1
    assert xc.option(0) == [("a", None), ("x", "red")]
    assert xc.option_text(1) == "b x"
    assert xc.data == ["first", None]
    assert (xc.n_primary, xc.n_items, xc.n_options) == (2, 3, 2)
    arrays = xc.arrays()
    assert arrays["start"].tolist() == [0, 2, 4]
    assert arrays["items"].tolist() == [0, 2, 1, 2]
    assert arrays["colours"].tolist() == [0, 1, 0, 0]


def test_any_hashable_names_and_tuple_names():
    xc = ExactCover([(0, 0), (0, 1)], [("d", 1)])
    xc.add_option([(0, 0), ("d", 1)])  # the tuple ("d", 1) is itself an item
    xc.add_option([(0, 1), (("d", 1), "blue")])  # ... and may be coloured
    assert xc.option(0) == [((0, 0), None), (("d", 1), None)]
    assert xc.option(1) == [((0, 1), None), (("d", 1), "blue")]


def test_text_round_trip():
    xc = ExactCover.from_text(TINY)
    assert xc.primary == ["a", "b", "c"]
    assert xc.secondary == ["x", "y"]
    assert xc.to_text() == TINY.split("\n", 1)[1]
    again = ExactCover.from_text(xc.to_text())
    assert [again.option(k) for k in range(4)] == [xc.option(k) for k in range(4)]


def test_long_names_and_colours(tmp_path):
    text = "first_primary_item second | a_long_secondary\n" \
           "first_primary_item a_long_secondary:crimson\nsecond a_long_secondary:crimson\n"
    path = tmp_path / "long.xc"
    path.write_text(text)
    xc = ExactCover.read(path)
    assert xc.to_text() == text
    assert xc.colours == ["crimson"]


def test_checker():
    xc = ExactCover.from_text(TINY)
    assert xc.check((2, 3)) == []
    assert xc.check((0, 1, 2)) == [
        "secondary item y is covered by options 1 and 2"
    ]
    assert "primary item c is not covered" in xc.check((0,))
    assert "primary item a is covered by options 0 and 3" in xc.check((0, 3))
    assert xc.check((7,))[0] == "no option 7"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("a b\na z\n", 2, "unknown item z"),
        ("a b\na a\n", 2, "item a twice"),
        ("a b | x\na:1 x\n", 2, "colour '1' on primary item a"),
        ("a b | x\nx z\n", 2, "unknown item z"),  # in an option that would be dropped
        ("3:2|a b\n", 1, "item a: least 3 exceeds most 2"),
        ("a -1:2|b\n", 1, "item 'b': bound -1 is negative"),
        ("a 1.5|b\n", 1, "item 'b': bound '1.5' is not a whole number"),
        ("a x:2|b\n", 1, "item 'b': bound 'x' is not a whole number"),
        ("0:0|a b\n", 1, "item a: bounds 0:0"),
        ("a | 2|x\n", 1, "bounds on secondary item 'x'"),
        ("a 1:2:3|b\n", 1, "malformed bounds '1:2:3|b'"),
        ("a 1|2|b\n", 1, "malformed bounds '1|2|b'"),
        ("a 2|\n", 1, "no item name after the bounds in '2|'"),
        ("a b a\n", 1, "duplicate item name 'a'"),
        ("a | x | y\n", 1, "more than one '|'"),
        ("| x\n", None, "no items"),
        ("| only\n   \n", None, "no items"),
        ("a b | x\na x:\n", 2, "malformed item 'x:'"),
        ("| comment\n| x\n", None, "no items"),
        ("a:b c\n", 1, "may not contain ':'"),
        ("a \ufeffb\n", 1, "starts with a byte-order mark"),
        ("| y\n| x\n", None, "no items"),
        ("| nothing but secondary\n| x y\n", None, "no items"),
    ],
)
def test_bad_input_names_line_and_token(text, line, words):
    with pytest.raises(InputError) as caught:
        ExactCover.from_text(text, source="bad.xc")
    err = caught.value
    assert words in str(err)
    assert err.line == line
    assert str(err).startswith("bad.xc")


def test_a_line_starting_with_a_bar_is_a_comment():
    # So an item line cannot start with the bar: no primary items, no problem.
    with pytest.raises(InputError, match="no items"):
        ExactCover.from_text("| comment\n | x\n")


def test_missing_and_binary_files(tmp_path):
    with pytest.raises(InputError, match="cannot read"):
        ExactCover.read(tmp_path / "nothing.xc")
    binary = tmp_path / "binary.xc"
    binary.write_bytes(b"a b\n\x00\x01\x02")
    with pytest.raises(InputError, match="binary"):
        ExactCover.read(binary)


def test_declaration_errors():
    assert csp.count(ExactCover([], [])).count == 1  # like an empty Model: see test_edges
    with pytest.raises(InputError, match="duplicate"):
        ExactCover(["a"], ["a"])
    xc = ExactCover(["a"], ["x"])
    with pytest.raises(InputError, match="unknown item q"):
        xc.add_option(["a", "q"])
    with pytest.raises(InputError, match="unknown item"):
        xc.add_option(["a", ["unhashable"]])
    assert xc.n_options == 0  # a refused option leaves no trace


def test_unwritable_names_are_refused_by_to_text():
    xc = ExactCover(["a b"])
    xc.add_option(["a b"])
    with pytest.raises(InputError, match="cannot be written"):
        xc.to_text()


def test_a_byte_order_mark_is_not_part_of_the_first_item(tmp_path):
    xc = ExactCover.from_text("\ufeffa b | x\na x:0\nb x:0\n")
    assert xc.primary == ["a", "b"]
    path = tmp_path / "bom.xc"
    path.write_bytes(b"\xef\xbb\xbfa b\na\nb\n")
    assert ExactCover.read(path).primary == ["a", "b"]


@pytest.mark.parametrize("colour", ["b:c", ":", "a::b", "|", "x|y"])
def test_colours_read_are_written_back(colour):
    # An item token splits at its first ':', so a colour may hold more of them.
    text = f"a b | x\na x:{colour}\nb x:{colour}\n"
    xc = ExactCover.from_text(text)
    assert xc.option(0) == [("a", None), ("x", colour)]
    assert xc.to_text() == text
    again = ExactCover.from_text(xc.to_text())
    assert again.option(1) == xc.option(1) and again.colours == [colour]


@pytest.mark.parametrize(
    ("primary", "option", "words"),
    [
        (["a b"], ["a b"], "item name 'a b' cannot be written"),
        (["a:b"], ["a:b"], "item name 'a:b' cannot be written"),
        (["|"], ["|"], "item name '|' cannot be written"),
        (["|a"], ["|a"], "item name '|a' cannot be written"),  # a comment, or a bar
        (["2|a"], ["2|a"], "item name '2|a' cannot be written"),  # it would read as bounds
        (["\ufeffa"], ["\ufeffa"], "cannot be written"),  # it would read back as a BOM
        (["a"], ["a", ("x", "light red")], "colour 'light red' cannot be written"),
        (["a"], ["a", ("x", "")], "colour '' cannot be written"),
    ],
)
def test_unwritable_tokens_are_named(primary, option, words):
    xc = ExactCover(primary, ["x"])
    xc.add_option(option)  # any hashable may be declared; only writing needs tokens
    with pytest.raises(InputError, match=words):
        xc.to_text()


def test_write_leaves_no_half_written_file(tmp_path):
    xc = ExactCover(["a"], ["x"])
    xc.add_option(["a", ("x", "two words")])
    path = tmp_path / "out.xc"
    with pytest.raises(InputError, match="cannot be written"):
        xc.write(path)
    assert not path.exists()


def test_read_refuses_a_device():
    import os

    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    with pytest.raises(InputError, match="not a regular file or a pipe"):
        ExactCover.read("/dev/zero")


# Characters that stress the format: separators, colons, bars, non-ASCII.
_CHARS = st.sampled_from(list("ab:|x\u00e9\u4e2d") + [" ", "\t", "\u00a0", "\ufeff"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(_CHARS, max_size=12), min_size=1, max_size=6))
def test_whatever_is_read_is_written_back(lines):
    # read -> write -> read is the identity on every input the reader accepts
    text = "\n".join(lines)
    try:
        xc = ExactCover.from_text(text)
    except InputError:
        return
    again = ExactCover.from_text(xc.to_text())
    assert (again.primary, again.secondary) == (xc.primary, xc.secondary)
    assert [again.option(k) for k in range(again.n_options)] == \
        [xc.option(k) for k in range(xc.n_options)]
