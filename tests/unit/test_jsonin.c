/* test_jsonin.c - the JSON the CLI reads (engine/cli/jsonin.c): jansson
 * parses it; a defect is reported at the column where it starts, in the
 * words of the CLI's reader before jansson (the issue keeps every message:
 * these were checked against that reader, and each column can be counted
 * by hand, 1 = the first character). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "jsonin.h"

typedef struct jcase {
    const char *text;
    int code;
    const char *want; /* the field's value, or the error */
} jcase;

static const jcase cases[] = {
    /* read */
    {"{\"position\": \"x\"}", JSONIN_FOUND, "x"},
    {"  {\"position\": \"x\"} ", JSONIN_FOUND, "x"},
    {"{\"a\": [true, false, null, {\"b\": [1.5e3, -0.2]}], \"position\": \"ok\"}",
     JSONIN_FOUND, "ok"},
    {"{\"p\": \"\\/\\b\", \"position\": \"\\u00e9\\ud83d\\ude00\\\"\"}", JSONIN_FOUND,
     "\xc3\xa9\xf0\x9f\x98\x80\""},
    {"{\"position\": \"x\", \"position\": \"y\"}", JSONIN_FOUND, "y"}, /* the last wins */
    {"{\"a\": {\"position\": 1}, \"position\": \"z\"}", JSONIN_FOUND, "z"},
    {"{\"a\": 99999999999999999999999, \"position\": \"x\"}", JSONIN_FOUND, "x"},
    {"{\"a\": 1}", JSONIN_ABSENT, ""},
    /* the field */
    {"{\"position\": 5}", JSONIN_BAD, "column 14: field \"position\" is not a string"},
    {"  {\"position\": 5}", JSONIN_BAD, "column 16: field \"position\" is not a string"},
    {"{\"position\": 1, \"position\": \"x\"}", JSONIN_BAD,
     "column 14: field \"position\" is not a string"},
    {"{\"pos\\u0069tion\": 3}", JSONIN_BAD, "column 19: field \"position\" is not a string"},
    /* structure */
    {"[1]", JSONIN_BAD, "column 1: expected a JSON object"},
    {"{\"position\": \"x\"", JSONIN_BAD, "column 17: expected ',' or '}'"},
    {"{\"a\": 1 \"b\"}", JSONIN_BAD, "column 9: expected ',' or '}'"},
    {"{\"a\": [1 2]}", JSONIN_BAD, "column 10: expected ',' or ']'"},
    {"{\"position\" \"x\"}", JSONIN_BAD, "column 13: expected ':'"},
    {"{1:2}", JSONIN_BAD, "column 2: expected a field name"},
    {"{\"a\":1,}", JSONIN_BAD, "column 8: expected a field name"},
    {"{", JSONIN_BAD, "column 2: expected a field name"},
    {"{} x", JSONIN_BAD, "column 4: text after the object"},
    {"{\"a\":", JSONIN_BAD, "column 6: unexpected end of input"},
    {"{\"a\": }", JSONIN_BAD, "column 7: unexpected character '}'"},
    {"{\"a\": @}", JSONIN_BAD, "column 7: unexpected character '@'"},
    /* literals and numbers */
    {"{\"a\": tru}", JSONIN_BAD, "column 7: unexpected character 't'"},
    {"{\"a\": trueX}", JSONIN_BAD, "column 11: expected ',' or '}'"},
    {"{\"a\": 01}", JSONIN_BAD, "column 8: expected ',' or '}'"},
    {"{\"a\": -}", JSONIN_BAD, "column 7: bad number"},
    {"{\"a\": 1.}", JSONIN_BAD, "column 7: bad number"},
    {"{\"a\": 1e}", JSONIN_BAD, "column 7: bad number"},
    /* strings */
    {"{\"a\": \"x", JSONIN_BAD, "column 7: unterminated string"},
    {"{\"position\": \"x\ty\"}", JSONIN_BAD, "column 16: control character in string"},
    {"{\"position\": \"a\\qb\"}", JSONIN_BAD, "column 16: bad escape '\\q'"},
    {"{\"a\":\"\\u12G4\"}", JSONIN_BAD, "column 7: bad \\u escape (need 4 hex digits)"},
    {"{\"a\":\"\\udc00\"}", JSONIN_BAD, "column 7: lone low surrogate \\uDC00"},
    {"{\"position\": \"\\ud800\"}", JSONIN_BAD,
     "column 15: high surrogate \\uD800 without a low one"},
    {"{\"a\":\"\\ud800\\u0041\"}", JSONIN_BAD, "column 7: high surrogate \\uD800 without a low one"},
    {"{\"position\": \"a\\u0000b\"}", JSONIN_BAD, "column 16: \\u0000 is not allowed here"},
    /* what only jansson refuses, in its words */
    {"{\"position\": \"x\xffy\"}", JSONIN_BAD, "column 15: unable to decode byte 0xff near '\"x'"},
};

static void test_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL, err[256];
        int code = jsonin_string(cases[i].text, "position", &out, err, sizeof err);
        const char *got = code == JSONIN_FOUND ? out : code == JSONIN_BAD ? err : "";
        if (code != cases[i].code || strcmp(got, cases[i].want))
            fail_msg("%s\n got  %d %s\n want %d %s", cases[i].text, code, got, cases[i].code,
                     cases[i].want);
        free(out);
    }
}

/* Nesting: 64 levels below the object are read, a value at 65 is not. */
static void test_nesting(void **state)
{
    (void)state;
    for (int deep = 63; deep <= 64; deep++)
        for (int filled = 0; filled <= 1; filled++) {
            char text[512], *o = text, *out = NULL, err[256];
            o += sprintf(o, "{\"a\":");
            for (int k = 0; k < deep; k++)
                *o++ = '[';
            if (filled)
                *o++ = '1';
            for (int k = 0; k < deep; k++)
                *o++ = ']';
            sprintf(o, ", \"position\": \"x\"}");
            int code = jsonin_string(text, "position", &out, err, sizeof err);
            if (deep == 64 && filled) {
                /* the 1 is at column 6 + 64 */
                assert_int_equal(code, JSONIN_BAD);
                assert_string_equal(err, "column 70: nested too deeply");
            } else {
                assert_int_equal(code, JSONIN_FOUND);
                assert_string_equal(out, "x");
            }
            free(out);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_nesting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
