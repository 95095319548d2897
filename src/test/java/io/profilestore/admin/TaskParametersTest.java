package io.profilestore.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A task's record shows its parameters' names, and values only where they are known to be harmless. */
class TaskParametersTest {

    @Test
    void harmlessValuesAreShownAndOthersOnlyByName() {
        var parameters = new LinkedHashMap<String, String[]>();
        parameters.put("note", new String[] {"Иванов"});
        parameters.put("logger", new String[] {"io.profilestore.users", "org.eclipse.jetty"});
        parameters.put("level", new String[] {"DEBUG"});
        parameters.put("dryRun", new String[] {"true"});

        assertThat(TaskParameters.described(parameters))
                .isEqualTo("?dryRun=true&level=DEBUG&logger=io.profilestore.users&logger=org.eclipse.jetty&note");
    }

    @Test
    void credentialsAndOddValuesAreLeftOut() {
        assertThat(TaskParameters.described(Map.of("logger", new String[] {"psk_test-admin-0123456789abcdef"})))
                .isEqualTo("?logger");
        assertThat(TaskParameters.described(Map.of("logger", new String[] {"eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.sig"})))
                .isEqualTo("?logger");
        assertThat(TaskParameters.described(Map.of("level", new String[] {"+7 912 345 67 89"}))).isEqualTo("?level");
        assertThat(TaskParameters.described(Map.of("dryRun", new String[] {"maybe"}))).isEqualTo("?dryRun");
        assertThat(TaskParameters.described(Map.of("Иванов", new String[] {""})))
                .isEqualTo("?(a parameter of 6 characters)");
        assertThat(TaskParameters.described(Map.of("psk_abcdefgh12345678", new String[] {""})))
                .isEqualTo("?(a parameter of 20 characters)");
        assertThat(TaskParameters.described(Map.of())).isEmpty();
    }
}
