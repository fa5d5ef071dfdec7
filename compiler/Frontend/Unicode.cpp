//===- Unicode.cpp - UTF-8 decoding and character classes -------*- C++ -*-===//
//
// The identifier classes are ranges of whole blocks (or runs inside a block)
// read off the Unicode code charts, not a table of every character's
// properties; llvm::sys::unicode supplies what is printable and what is a
// format character.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Unicode.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Unicode.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

using namespace tilec::py;

namespace {

struct Range {
  uint32_t first, last;
};

bool contains(const Range *begin, const Range *end, uint32_t cp) {
  // The ranges are sorted and disjoint: the last one starting at or before
  // `cp` is the only candidate.
  const Range *it = std::upper_bound(
      begin, end, cp, [](uint32_t c, const Range &r) { return c < r.first; });
  return it != begin && cp <= std::prev(it)->last;
}

/// Punctuation, symbols, non-decimal numbers and enclosing marks: never in a
/// Python identifier. Whole blocks where a block holds nothing else, runs
/// inside the blocks that mix them with letters.
constexpr Range kNotIdentifier[] = {
    {0x00A1, 0x00A9}, // Latin-1 punctuation and signs (U+00AA ª is a letter)
    {0x00AB, 0x00B4}, // ... « ¬ ® ¯ ° ± ² ³ ´ (U+00B5 µ is a letter)
    {0x00B6, 0x00B6}, // ¶ (U+00B7 · continues identifiers)
    {0x00B8, 0x00B9}, // ¸ ¹ (U+00BA º is a letter)
    {0x00BB, 0x00BF}, // » ¼ ½ ¾ ¿
    {0x00D7, 0x00D7}, // ×
    {0x00F7, 0x00F7}, // ÷
    {0x02C2, 0x02C5}, // modifier symbols (the modifier letters around them
    {0x02D2, 0x02DF}, //   are letters)
    {0x02E5, 0x02EB},
    {0x02ED, 0x02ED},
    {0x02EF, 0x02FF},
    {0x0375, 0x0375}, // Greek numeral sign
    {0x037E, 0x037E}, // Greek question mark
    {0x0384, 0x0385}, // Greek tonos
    {0x0482, 0x0482}, // Cyrillic thousands sign
    {0x0488, 0x0489}, // Cyrillic enclosing marks
    {0x055A, 0x055F}, // Armenian punctuation
    {0x0589, 0x058A},
    {0x058D, 0x058F},
    {0x05BE, 0x05BE}, // Hebrew punctuation
    {0x05C0, 0x05C0},
    {0x05C3, 0x05C3},
    {0x05C6, 0x05C6},
    {0x05F3, 0x05F4},
    {0x0606, 0x060F}, // Arabic signs and punctuation
    {0x061B, 0x061B},
    {0x061D, 0x061F},
    {0x066A, 0x066D},
    {0x06D4, 0x06D4},
    {0x06DE, 0x06DE},
    {0x06E9, 0x06E9},
    {0x06FD, 0x06FE},
    {0x0964, 0x0965}, // Devanagari danda, double danda
    {0x0970, 0x0970},
    {0x0E3F, 0x0E3F}, // Thai baht sign
    {0x0E4F, 0x0E4F},
    {0x0E5A, 0x0E5B},
    {0x2000, 0x203E}, // General Punctuation (but the connectors U+203F,
    {0x2041, 0x2053}, //   U+2040 and U+2054)
    {0x2055, 0x206F},
    {0x2070, 0x2070}, // superscript and subscript digits and signs (U+2071
    {0x2074, 0x207E}, //   ⁱ, U+207F ⁿ and U+2090-U+209C are letters)
    {0x2080, 0x208E},
    {0x20A0, 0x20CF}, // Currency Symbols
    {0x20DD, 0x20E0}, // enclosing combining marks
    {0x20E2, 0x20E4},
    {0x2100, 0x2101}, // the symbols among the Letterlike Symbols
    {0x2103, 0x2106},
    {0x2108, 0x2109},
    {0x2114, 0x2114},
    {0x2116, 0x2117},
    {0x211E, 0x2123},
    {0x2125, 0x2125},
    {0x2127, 0x2127},
    {0x2129, 0x2129},
    {0x213A, 0x213B},
    {0x2140, 0x2144},
    {0x214A, 0x214D},
    {0x214F, 0x215F}, // ... and vulgar fractions (Roman numerals are letters)
    {0x2189, 0x218B},
    {0x2190, 0x2BFF}, // Arrows, Mathematical Operators, Miscellaneous
                      // Technical, Control Pictures, OCR, Enclosed
                      // Alphanumerics, Box Drawing, Block Elements, Geometric
                      // Shapes, Miscellaneous Symbols, Dingbats, Braille, ...
    {0x2CE5, 0x2CEA}, // Coptic symbols
    {0x2CF9, 0x2CFF},
    {0x2D70, 0x2D70}, // Tifinagh separator
    {0x2E00, 0x2E7F}, // Supplemental Punctuation
    {0x2E80, 0x2FFF}, // CJK and Kangxi radicals, ideographic description
    {0x3000, 0x3004}, // CJK Symbols and Punctuation (U+3005-U+3007 々 〆 〇,
    {0x3008, 0x3020}, //   U+3021-U+302F, U+3031-U+3035 and U+3038-U+303C
    {0x3030, 0x3030}, //   are letters, numbers and marks of identifiers)
    {0x3036, 0x3037},
    {0x303D, 0x303F},
    {0x309B, 0x309C}, // kana voiced sound marks
    {0x30A0, 0x30A0}, // katakana double hyphen
    {0x30FB, 0x30FB}, // katakana middle dot
    {0x3190, 0x319F}, // Kanbun
    {0x31C0, 0x31EF}, // CJK Strokes
    {0x3200, 0x33FF}, // Enclosed CJK Letters and Months, CJK Compatibility
    {0x4DC0, 0x4DFF}, // Yijing Hexagram Symbols
    {0xA490, 0xA4CF}, // Yi Radicals
    {0xA4FE, 0xA4FF}, // Lisu punctuation
    {0xA60D, 0xA60F}, // Vai punctuation
    {0xA673, 0xA673},
    {0xA67E, 0xA67E},
    {0xA6F2, 0xA6F7}, // Bamum punctuation
    {0xA700, 0xA716}, // modifier tone letters
    {0xA720, 0xA721},
    {0xA789, 0xA78A},
    {0xA828, 0xA82B}, // Syloti Nagri poetry marks
    {0xA830, 0xA83F}, // Common Indic Number Forms
    {0xA874, 0xA877}, // Phags-pa punctuation
    {0xA8CE, 0xA8CF},
    {0xA8F8, 0xA8FA},
    {0xA8FC, 0xA8FC},
    {0xA92E, 0xA92F},
    {0xA95F, 0xA95F},
    {0xA9C1, 0xA9CD}, // Javanese punctuation
    {0xA9DE, 0xA9DF},
    {0xAA5C, 0xAA5F},
    {0xAA77, 0xAA79},
    {0xAADE, 0xAADF},
    {0xAAF0, 0xAAF1},
    {0xAB5B, 0xAB5B},
    {0xAB6A, 0xAB6B},
    {0xABEB, 0xABEB},
    {0xFB29, 0xFB29}, // Hebrew alternative plus sign
    {0xFD3E, 0xFD4F}, // ornate parentheses, Arabic ligature symbols
    {0xFDCF, 0xFDCF},
    {0xFDFC, 0xFDFF},
    {0xFE10, 0xFE19}, // Vertical Forms
    {0xFE30, 0xFE32}, // CJK Compatibility Forms (U+FE33, U+FE34 and
    {0xFE35, 0xFE4C}, //   U+FE4D-U+FE4F are connectors)
    {0xFE50, 0xFE6F}, // Small Form Variants
    {0xFF01, 0xFF0F}, // fullwidth punctuation and symbols
    {0xFF1A, 0xFF20},
    {0xFF3B, 0xFF3E},
    {0xFF40, 0xFF40},
    {0xFF5B, 0xFF65},
    {0xFFE0, 0xFFEF},
    {0xFFF9, 0xFFFF}, // Specials
    {0x10100, 0x1013F}, // Aegean Numbers
    {0x10175, 0x101FC}, // Ancient Greek numbers (the acrophonic ones are
                        // letter numbers), Ancient Symbols, Phaistos Disc
    {0x11FC0, 0x11FFF}, // Tamil Supplement (fractions and signs)
    {0x1CF50, 0x1CFCF}, // Znamenny neumes
    {0x1D000, 0x1D164}, // Byzantine and Western Musical Symbols (the
    {0x1D16A, 0x1D16C}, //   combining marks among them continue
    {0x1D183, 0x1D184}, //   identifiers)
    {0x1D18C, 0x1D1A9},
    {0x1D1AE, 0x1D241},
    {0x1D245, 0x1D2FF},
    {0x1D300, 0x1D37F}, // Tai Xuan Jing, Counting Rod Numerals
    {0x1D800, 0x1D9FF}, // Sutton SignWriting symbols (its marks continue)
    {0x1EC70, 0x1ECBF}, // Indic Siyaq Numbers
    {0x1ED00, 0x1ED4F}, // Ottoman Siyaq Numbers
    {0x1EEF0, 0x1EEF1},
    {0x1F000, 0x1FBEF}, // tiles, cards, enclosed supplements, emoji and
                        // pictographs, ... (U+1FBF0-U+1FBF9 are digits)
};

/// Characters that continue an identifier but do not start one.
constexpr Range kContinueOnly[] = {
    {0x00B7, 0x00B7},   // middle dot
    {0x0300, 0x036F},   // Combining Diacritical Marks
    {0x0387, 0x0387},   // Greek ano teleia
    {0x0660, 0x0669},   // Arabic-Indic digits
    {0x06F0, 0x06F9},
    {0x0966, 0x096F},   // Devanagari digits
    {0x1AB0, 0x1AFF},   // Combining Diacritical Marks Extended
    {0x1DC0, 0x1DFF},   // ... Supplement
    {0x203F, 0x2040},   // undertie, character tie
    {0x2054, 0x2054},   // inverted undertie
    {0x20D0, 0x20FF},   // combining marks for symbols
    {0xFE00, 0xFE0F},   // variation selectors
    {0xFE20, 0xFE2F},   // Combining Half Marks
    {0xFE33, 0xFE34},   // presentation forms of the low line
    {0xFE4D, 0xFE4F},
    {0xFF10, 0xFF19},   // fullwidth digits
    {0xFF3F, 0xFF3F},   // fullwidth low line
    {0x1FBF0, 0x1FBF9}, // segmented digits
    {0xE0100, 0xE01EF}, // variation selectors supplement
};

/// Space separators (Zs) other than ' ': printable for LLVM, not for Python.
constexpr Range kSpaceSeparators[] = {
    {0x00A0, 0x00A0}, {0x1680, 0x1680}, {0x2000, 0x200A},
    {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000},
};

template <size_t N> bool contains(const Range (&ranges)[N], uint32_t cp) {
  return contains(ranges, ranges + N, cp);
}

bool isASCIILetter(uint32_t cp) {
  return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || cp == '_';
}

} // namespace

unsigned tilec::py::decodeUTF8(std::string_view s, size_t pos, uint32_t &cp) {
  if (pos >= s.size())
    return 0;
  unsigned char b0 = s[pos];
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  }
  unsigned length;
  uint32_t min;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
    min = 0x80;
    cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    min = 0x800;
    cp = b0 & 0x0F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    min = 0x10000;
    cp = b0 & 0x07;
  } else {
    return 0; // a continuation byte, or one UTF-8 never uses
  }
  if (s.size() - pos < length)
    return 0;
  for (unsigned i = 1; i < length; ++i) {
    unsigned char b = s[pos + i];
    if ((b & 0xC0) != 0x80)
      return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return length;
}

bool tilec::py::isPrintableCharacter(uint32_t cp) {
  if (cp == ' ')
    return true;
  if (cp == 0x00AD) // SOFT HYPHEN: format (Cf), though LLVM prints it
    return false;
  return llvm::sys::unicode::isPrintable(int(cp)) &&
         !contains(kSpaceSeparators, cp);
}

bool tilec::py::isIdentifierContinue(uint32_t cp) {
  if (cp < 0x80)
    return isASCIILetter(cp) || (cp >= '0' && cp <= '9');
  return isPrintableCharacter(cp) && !contains(kNotIdentifier, cp);
}

bool tilec::py::isIdentifierStart(uint32_t cp) {
  if (cp < 0x80)
    return isASCIILetter(cp);
  return isIdentifierContinue(cp) && !contains(kContinueOnly, cp);
}

bool tilec::py::isHiddenInDiagnostics(uint32_t cp) {
  if ((cp < 0x20 && cp != '\t') || (cp >= 0x7F && cp <= 0x9F))
    return true;
  // ZERO WIDTH NON-JOINER and JOINER spell words of several scripts (and
  // emoji); the other format characters are invisible or reorder the text.
  return cp != 0x200C && cp != 0x200D &&
         llvm::sys::unicode::isFormatting(int(cp));
}

unsigned tilec::py::getDisplayWidth(uint32_t cp) {
  if (isHiddenInDiagnostics(cp))
    return 1;
  std::string utf8;
  appendUTF8(utf8, cp);
  int width = llvm::sys::unicode::columnWidthUTF8(utf8);
  if (width >= 0)
    return unsigned(width);
  // Not printable: the joiners show as nothing, the rest (private use,
  // unassigned) as one cell on most terminals.
  return llvm::sys::unicode::isFormatting(int(cp)) ? 0 : 1;
}

std::string tilec::py::formatCodePoint(uint32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "U+%04X", unsigned(cp));
  return buf;
}

void tilec::py::appendUTF8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | ((cp >> 18) & 0x07));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

std::vector<std::string_view>
tilec::py::splitCodePoints(std::string_view s) {
  std::vector<std::string_view> out;
  for (size_t k = 0; k < s.size();) {
    size_t n = 1;
    while (k + n < s.size() && (uint8_t(s[k + n]) & 0xC0) == 0x80)
      ++n;
    out.push_back(s.substr(k, n));
    k += n;
  }
  return out;
}
