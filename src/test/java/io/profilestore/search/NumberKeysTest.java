package io.profilestore.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jersey.validation.Validators;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Numbers reach the index as keyed hashes: what a search can find, and what a dump of the index cannot show. */
class NumberKeysTest {

    static final String K1 = "k1:" + Base64.getEncoder().encodeToString("a key of thirty-two bytes, no less".getBytes());
    static final String K2 = "k2:" + Base64.getEncoder().encodeToString("another key of thirty-two bytes!!".getBytes());
    static final ObjectMapper JSON = io.dropwizard.jackson.Jackson.newObjectMapper();

    @Test
    void aHashDependsOnTheKeyTheKindAndTheValueAndNamesItsKey() {
        var k1 = NumberKeys.parse(K1);
        String phone = k1.hashes(NumberKeys.Kind.PHONE, "79123456789").get(0);

        assertThat(phone).matches("k1:[A-Za-z0-9_-]{22}");
        assertThat(k1.hashes(NumberKeys.Kind.PHONE, "79123456789")).containsExactly(phone);
        assertThat(NumberKeys.parse(K1).hashes(NumberKeys.Kind.PHONE, "79123456789")).containsExactly(phone);
        assertThat(k1.hashes(NumberKeys.Kind.PHONE, "79123456780").get(0)).isNotEqualTo(phone);
        assertThat(k1.hashes(NumberKeys.Kind.DOCUMENT, "79123456789").get(0)).isNotEqualTo(phone);
        String sameKeyBytesOtherId = "k9:" + K1.substring(3);
        assertThat(NumberKeys.parse(sameKeyBytesOtherId).hashes(NumberKeys.Kind.PHONE, "79123456789").get(0))
                .isEqualTo("k9:" + phone.substring(3));
        assertThat(NumberKeys.parse("k1:" + K2.substring(3)).hashes(NumberKeys.Kind.PHONE, "79123456789").get(0))
                .isNotEqualTo(phone);
    }

    @Test
    void severalKeysGiveAHashUnderEachInTheOrderGiven() {
        var both = NumberKeys.parse(K2 + ", " + K1);

        assertThat(both.ids()).containsExactly("k2", "k1");
        assertThat(both.hashes(NumberKeys.Kind.EMAIL, "anna@example.org")).containsExactly(
                NumberKeys.parse(K2).hashes(NumberKeys.Kind.EMAIL, "anna@example.org").get(0),
                NumberKeys.parse(K1).hashes(NumberKeys.Kind.EMAIL, "anna@example.org").get(0));
    }

    @Test
    void keysThatCannotBeReadAreRefusedWithoutShowingThem() {
        String shortKey = "k1:" + Base64.getEncoder().encodeToString(new byte[31]);
        assertThatThrownBy(() -> NumberKeys.parse(shortKey)).hasMessageContaining("31 bytes")
                .hasMessageNotContaining(shortKey.substring(3));
        assertThatThrownBy(() -> NumberKeys.parse(K1 + "," + K1)).hasMessageContaining("k1 is given twice");
        assertThatThrownBy(() -> NumberKeys.parse("K1:" + K1.substring(3))).hasMessageContaining("lower-case");
        assertThatThrownBy(() -> NumberKeys.parse(K1.substring(3))).hasMessageContaining("id:base64");
        assertThatThrownBy(() -> NumberKeys.parse("k1:not base64!")).hasMessageContaining("not base64")
                .hasMessageNotContaining("not base64!");
        assertThatThrownBy(() -> NumberKeys.parse(" ")).hasMessageContaining("no key");
    }

    @Test
    void theConfigurationSaysWhyItsKeysCannotBeReadWithoutShowingThem() {
        var settings = new SearchSettings();
        String shortKey = Base64.getEncoder().encodeToString("thirty bytes, and not one more".getBytes());
        settings.numberKeys = "k1:" + shortKey;

        var violations = Validators.newValidator().validate(settings);

        assertThat(violations).singleElement().satisfies(v -> assertThat(v.getMessage())
                .isEqualTo("search.numberKeys cannot be read: the key k1 has 30 bytes; at least 32 are needed (openssl "
                        + "rand -base64 32) (docs/security.md, Numbers in the index)")
                .doesNotContain(shortKey));
        settings.numberKeys = K2 + "," + K1;
        assertThat(Validators.newValidator().validate(settings)).isEmpty();
    }

    @Test
    void withNoKeyConfiguredTheDevelopmentKeyIsUsedAndSaysSo() {
        assertThat(NumberKeys.configured("").development()).isTrue();
        assertThat(NumberKeys.configured("").ids()).containsExactly("dev");
        assertThat(NumberKeys.configured(K1).development()).isFalse();
    }

    @Test
    void theIndexDocumentHoldsNoNumberAndNoEmailInClear() throws Exception {
        var keys = NumberKeys.parse(K1);
        var data = JSON.readTree("{\"surname\": \"Иванова\", \"phones\": [\"+7 (912) 345-67-89\", {\"number\": "
                + "\"8 912 345 67 89\"}, \"+44 20 7946 0958\"], \"documents\": [{\"type\": \"passport\", \"number\": "
                + "\"45 07 123456\"}], \"email\": \" Anna.Ivanova@Example.com \"}");

        var document = ProfileDocument.of(UUID.randomUUID(), UUID.randomUUID(), null, 1, data, Instant.now(),
                NameNormalizer.standard(), keys);

        // one hash per number as search reads it: the two spellings of the Russian mobile are one
        assertThat(document.phoneHashes()).containsExactly(keys.hashes(NumberKeys.Kind.PHONE, "79123456789").get(0),
                keys.hashes(NumberKeys.Kind.PHONE, "442079460958").get(0));
        assertThat(document.documentHashes()).containsExactly(keys.hashes(NumberKeys.Kind.DOCUMENT, "4507123456").get(0));
        assertThat(document.emailHashes())
                .containsExactly(keys.hashes(NumberKeys.Kind.EMAIL, "anna.ivanova@example.com").get(0));
        String indexed = JSON.writeValueAsString(document);
        assertThat(indexed).contains("Иванова")
                .doesNotContain("79123456789", "9123456789", "442079460958", "4507123456", "123456", "anna", "example");
    }

    @Test
    void aProfileWithoutNumbersHasNoHashFields() throws Exception {
        var document = ProfileDocument.of(UUID.randomUUID(), UUID.randomUUID(), null, 1,
                JSON.readTree("{\"surname\": \"Иванова\", \"phones\": [\"12\"], \"documents\": []}"), Instant.now(),
                NameNormalizer.standard(), NumberKeys.parse(K1));

        assertThat(document.phoneHashes()).isNull();
        assertThat(document.documentHashes()).isNull();
        assertThat(document.emailHashes()).isNull();
    }
}
