//===- UnicodeTest.cpp - UTF-8 decoding and character classes --*- C++ -*-===//
//
// decodeUTF8 on valid and invalid sequences; the identifier classes against
// characters Python accepts and refuses; what diagnostics hide and how wide
// they print characters.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Unicode.h"

#include <gtest/gtest.h>

using namespace tilec::py;

namespace {

uint32_t decode(std::string_view s, unsigned expectedLength) {
  uint32_t cp = 0;
  EXPECT_EQ(decodeUTF8(s, 0, cp), expectedLength) << s;
  return cp;
}

TEST(UnicodeTest, DecodeUTF8) {
  EXPECT_EQ(decode("a", 1), uint32_t('a'));
  EXPECT_EQ(decode("é", 2), 0xE9u);
  EXPECT_EQ(decode("\u202E", 3), 0x202Eu);
  EXPECT_EQ(decode("\U0001F600", 4), 0x1F600u);
  EXPECT_EQ(decode("\xF4\x8F\xBF\xBF", 4), 0x10FFFFu);
  decode("\x80", 0);             // continuation byte
  decode("\xC3", 0);             // truncated
  decode("\xC3x", 0);            // not a continuation
  decode("\xC0\x80", 0);         // overlong NUL
  decode("\xE0\x80\x80", 0);     // overlong
  decode("\xED\xA0\x80", 0);     // surrogate U+D800
  decode("\xF4\x90\x80\x80", 0); // past U+10FFFF
  decode("\xFF", 0);
  uint32_t cp;
  EXPECT_EQ(decodeUTF8("", 0, cp), 0u);
}

TEST(UnicodeTest, Identifiers) {
  // Letters of every script start names (Python's XID_Start).
  for (uint32_t cp : {0xE9u, 0xAAu, 0xB5u, 0x3BBu, 0x44Fu, 0x5D0u, 0x628u,
                      0x928u, 0xE01u, 0x3042u, 0x30A2u, 0x5909u, 0xAC00u,
                      0x2160u, 0x3005u, 0x1D400u, 0x20000u})
    EXPECT_TRUE(isIdentifierStart(cp)) << std::hex << cp;
  // Marks, digits, connectors and variation selectors only continue them.
  for (uint32_t cp :
       {0x301u, 0x660u, 0xFF10u, 0x203Fu, 0xFE0Fu, 0xB7u, 0xE0100u}) {
    EXPECT_TRUE(isIdentifierContinue(cp)) << std::hex << cp;
    EXPECT_FALSE(isIdentifierStart(cp)) << std::hex << cp;
  }
  // The approximation: the marks inside a script's block (here Devanagari's
  // virama and vowel sign AA) are not told apart from its letters.
  for (uint32_t cp : {0x94Du, 0x93Eu})
    EXPECT_TRUE(isIdentifierStart(cp)) << std::hex << cp;
  // Controls, format characters, spaces, punctuation and symbols are in
  // no name.
  for (uint32_t cp :
       {0x80u,   0x9Bu,   0xA0u,   0xADu,   0xABu,   0xD7u,    0x200Bu, 0x200Du,
        0x202Eu, 0x2066u, 0x2028u, 0x2026u, 0x20ACu, 0x2192u,  0x2211u, 0x3000u,
        0x3001u, 0xFEFFu, 0xFFFCu, 0xFFFEu, 0xE000u, 0x1F600u, 0xE0041u})
    EXPECT_FALSE(isIdentifierContinue(cp)) << std::hex << cp;
}

TEST(UnicodeTest, Printable) {
  EXPECT_TRUE(isPrintableCharacter(' '));
  EXPECT_TRUE(isPrintableCharacter(0x20ACu));
  for (uint32_t cp : {0x1Bu, 0x7Fu, 0x9Bu, 0xA0u, 0xADu, 0x200Bu, 0x202Eu,
                      0x2029u, 0xFEFFu, 0xE000u})
    EXPECT_FALSE(isPrintableCharacter(cp)) << std::hex << cp;
  EXPECT_EQ(formatCodePoint(0x1B), "U+001B");
  EXPECT_EQ(formatCodePoint(0x1F600), "U+1F600");
}

TEST(UnicodeTest, Diagnostics) {
  for (uint32_t cp : {0x1Bu, 0x7Fu, 0x80u, 0x9Bu, 0x200Bu, 0x202Eu, 0x2066u,
                      0xFEFFu, 0xE0041u})
    EXPECT_TRUE(isHiddenInDiagnostics(cp)) << std::hex << cp;
  for (uint32_t cp : {uint32_t('\t'), uint32_t('a'), 0xE9u, 0x200Du, 0x5909u})
    EXPECT_FALSE(isHiddenInDiagnostics(cp)) << std::hex << cp;
  EXPECT_EQ(getDisplayWidth('a'), 1u);
  EXPECT_EQ(getDisplayWidth(0xE9), 1u);
  EXPECT_EQ(getDisplayWidth(0x9B), 1u);   // shown as '?'
  EXPECT_EQ(getDisplayWidth(0x202E), 1u); // shown as '?'
  EXPECT_EQ(getDisplayWidth(0x301), 0u);
  EXPECT_EQ(getDisplayWidth(0x200D), 0u);
  EXPECT_EQ(getDisplayWidth(0x5909), 2u);
}

} // namespace
