package io.profilestore.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The planted duplicates: as many as asked, each the same person as the profile it names, varied as records are. */
class PlantedDuplicatesTest {

    static List<PlantedDuplicates.Generated> generate(long seed, int count) {
        var generator = new PlantedDuplicates(seed, 0.1, 0.05);
        var generated = new ArrayList<PlantedDuplicates.Generated>();
        for (int i = 0; i < count; i++) {
            generated.add(generator.next());
        }
        return generated;
    }

    @Test
    void aShareOfPeopleAppearsTwiceTheSameForTheSameSeed() {
        var generated = generate(7, 20_000);
        var twins = generated.stream().filter(g -> g.twinOf() >= 0).toList();

        assertThat(twins.size()).isBetween(800, 1_100);
        assertThat(generate(7, 20_000)).isEqualTo(generated);
        for (int i = 0; i < generated.size(); i++) {
            if (generated.get(i).twinOf() >= 0) {
                assertThat(generated.get(i).twinOf()).isEqualTo(i - 1);
            }
        }
    }

    @Test
    void aTwinIsThePersonOfItsOriginalVariedAsASecondRecordIs() {
        var generated = generate(11, 20_000);
        int latin = 0;
        int withoutPatronymic = 0;
        int samePassport = 0;
        int twins = 0;
        for (var twin : generated) {
            if (twin.twinOf() < 0) {
                continue;
            }
            twins++;
            var original = generated.get(twin.twinOf()).data();
            var data = twin.data();
            assertThat(data.path("birthDate")).isEqualTo(original.path("birthDate"));
            String surname = original.path("surname").asText();
            var spellings = new HashSet<String>(List.of(surname.replace('ё', 'е')));
            for (var scheme : ProfileGenerator.Romanization.values()) {
                spellings.add(scheme.romanize(surname));
            }
            assertThat(data.path("surname").asText()).as("the surname as written again").isIn(spellings);
            assertThat(data.path("phones").get(0).asText()).isNotEqualTo(original.path("phones").get(0).asText());
            latin += data.path("surname").asText().matches("\\p{IsLatin}.*")
                    && !original.path("surname").asText().matches("\\p{IsLatin}.*") ? 1 : 0;
            withoutPatronymic += data.has("patronymic") ? 0 : 1;
            samePassport += data.path("documents").equals(original.path("documents")) ? 1 : 0;
        }
        assertThat(twins).isPositive();
        assertThat(latin).as("another alphabet").isBetween(twins / 3, twins * 2 / 3);
        assertThat(withoutPatronymic).as("no patronymic").isBetween(twins / 6, twins / 2);
        assertThat(samePassport).as("the same passport").isBetween(twins / 3, twins * 2 / 3);
    }
}
