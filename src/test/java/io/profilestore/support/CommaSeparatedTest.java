package io.profilestore.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A list of names in the configuration, as YAML gives it or as an environment variable substituted into it. */
class CommaSeparatedTest {

    static class Settings {
        @JsonDeserialize(using = CommaSeparated.class)
        public List<String> names = List.of();
    }

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static List<String> read(String yaml) throws Exception {
        return YAML.readValue(yaml, Settings.class).names;
    }

    @Test
    void aYamlListOrOneTextOfNamesSeparatedByCommas() throws Exception {
        assertThat(read("names: [a, b]")).containsExactly("a", "b");
        assertThat(read("names: ' a, b ,,c '")).containsExactly("a", "b", "c");
    }

    @Test
    void emptyOrLeftOutIsNoName() throws Exception {
        assertThat(read("names: ''")).isEmpty();
        assertThat(read("names:")).isEmpty();
        assertThat(read("{}")).isEmpty();
    }

    @Test
    void aListHoldsTextsOnly() {
        assertThatThrownBy(() -> read("names: [{a: b}]")).isInstanceOf(MismatchedInputException.class)
                .hasMessageContaining("texts only");
    }
}
