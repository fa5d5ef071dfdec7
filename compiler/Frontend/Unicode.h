//===- Unicode.h - UTF-8 decoding and character classes ---------*- C++ -*-===//
//
// What the lexer and the diagnostics printer need to know about the
// characters of a UTF-8 file: where a code point starts and ends, which code
// points may appear in a Python identifier (an approximation of XID_Start /
// XID_Continue, see isIdentifierStart), which ones Python calls
// non-printable, and how diagnostics show a character on a terminal.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_FRONTEND_UNICODE_H
#define TILEC_COMPILER_FRONTEND_UNICODE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {
namespace py {

/// Decodes the UTF-8 sequence that starts at `s[pos]` into `cp` and returns
/// its length in bytes (1 to 4), or 0 if it is not valid UTF-8: a stray
/// continuation byte, a truncated or overlong sequence, a surrogate, a code
/// point past U+10FFFF, or a byte that never occurs in UTF-8 (0xC0, 0xC1,
/// 0xF5-0xFF).
unsigned decodeUTF8(std::string_view s, size_t pos, uint32_t &cp);

/// Whether `cp` may start / continue a Python identifier. ASCII exactly as
/// Python (letters and `_`; digits after the first); beyond ASCII an
/// approximation of XID_Start / XID_Continue without Unicode's tables: every
/// printable character (isPrintableCharacter) is a letter except the blocks
/// of punctuation, symbols, non-decimal numbers and enclosing marks, which
/// are refused; combining marks of the general-purpose blocks, variation
/// selectors, connector punctuation and fullwidth digits only continue one.
/// So every character Python accepts is accepted, and a few symbols inside
/// the blocks of a script (e.g. U+0964 DEVANAGARI DANDA) are too.
bool isIdentifierStart(uint32_t cp);
bool isIdentifierContinue(uint32_t cp);

/// Python's str.isprintable of one character: false for the categories Cc
/// (controls), Cf (format: U+200B ZERO WIDTH SPACE, U+202E RIGHT-TO-LEFT
/// OVERRIDE, U+FEFF, ...), Cs, Co (private use), Cn (unassigned), Zl, Zp, and
/// the space separators other than ' ' (U+00A0 NO-BREAK SPACE, ...).
bool isPrintableCharacter(uint32_t cp);

/// Characters that diagnostics print as '?': the C0 controls but tab, DEL,
/// the C1 controls (U+0080-U+009F: a terminal may take U+009B for the start
/// of an escape sequence) and the format characters (Cf) but U+200C and
/// U+200D: they are invisible (U+200B, U+FEFF, the tags U+E0000-U+E007F) or
/// reorder the text printed after them (U+202E and the other bidirectional
/// controls).
bool isHiddenInDiagnostics(uint32_t cp);

/// The number of terminal cells `cp` takes as a diagnostic prints it: 1 for
/// a character printed as '?', 0 for a combining mark or a joiner, 2 for a
/// wide (East Asian) character, else 1.
unsigned getDisplayWidth(uint32_t cp);

/// `U+XXXX` (at least four hex digits) for `cp`.
std::string formatCodePoint(uint32_t cp);

/// Python's characters of a string: its code points, each as the bytes that
/// encode it (a lead byte and its continuation bytes; a string literal is
/// valid UTF-8, so that is one code point each).
std::vector<std::string_view> splitCodePoints(std::string_view s);

/// Appends `cp` (up to U+10FFFF; a lone surrogate, as a Python string
/// escape may give, is encoded like any other code point) as UTF-8.
void appendUTF8(std::string &out, uint32_t cp);

} // namespace py
} // namespace tilec

#endif // TILEC_COMPILER_FRONTEND_UNICODE_H
