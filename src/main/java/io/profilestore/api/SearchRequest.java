package io.profilestore.api;

/**
 * {@code POST /v1/search}: the parameters of {@code GET /v1/search} in a body, so that the terms (names, numbers:
 * personal data) travel in no URL, which proxies and browsers keep. The console searches this way.
 */
public record SearchRequest(String q, String surname, String firstName, String patronymic, String birthDate,
        String phone, String document, Integer limit, String cursor, Boolean hydrate) {
}
