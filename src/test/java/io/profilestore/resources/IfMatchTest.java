package io.profilestore.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.profilestore.api.Problem;
import io.profilestore.resources.problems.ProblemException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The If-Match values a change may carry: one strong ETag names a version; anything else is refused or fails. */
class IfMatchTest {

    @ParameterizedTest(name = "[{0}] is version {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
            "\"7\"|7",
            "\"0\"|0",
            "'  \"42\"  '|42",
            "\"007\"|7",
            "\"999999999999999999\"|999999999999999999"})
    void aStrongEtagNamesTheVersionItWasRead(String header, long version) {
        assertThat(IfMatch.version(header)).isEqualTo(version);
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"W/\"7\"", " W/\"0\" "})
    void aWeakEtagMatchesNoVersion(String header) {
        // RFC 9110 compares If-Match strongly: a weak tag fails the precondition (412), it is not malformed
        assertThat(IfMatch.version(header)).isEqualTo(IfMatch.NEVER);
    }

    @ParameterizedTest(name = "[{0}]")
    @NullSource
    @ValueSource(strings = {"", "   ", "*", " * "})
    void noEtagOrAWildcardIsAMissingPrecondition(String header) {
        assertThat(refusal(header)).satisfies(problem -> {
            assertThat(problem.status()).isEqualTo(428);
            assertThat(problem.type()).isEqualTo(Problem.TYPE_BASE + "precondition-required");
        });
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {
            "7",                       // unquoted
            "\"7",                     // unterminated
            "\"abc\"",                 // not a version
            "\"-1\"",                  // no version is negative
            "\"1.5\"",
            "\"1234567890123456789\"", // 19 digits: past what a version can reach
            "\"1\", \"2\"",            // a list: a change replaces exactly one version
            "\"1\", *",
            "w/\"7\"",                 // the weak prefix is case-sensitive
            "W/7",
            "\"\""})
    void anythingElseIsMalformed(String header) {
        assertThat(refusal(header)).satisfies(problem -> {
            assertThat(problem.status()).isEqualTo(400);
            assertThat(problem.type()).isEqualTo(Problem.TYPE_BASE + "bad-request");
        });
    }

    private static Problem refusal(String header) {
        var thrown = catchThrowableOfType(ProblemException.class, () -> IfMatch.version(header));
        assertThat(thrown).as("refused").isNotNull();
        return thrown.problem();
    }
}
