package io.profilestore.importer;

import java.time.Instant;
import java.util.UUID;

/**
 * One profile of an import, valid and ready to write: where it stands in the source ({@code position}, a line or row
 * number from 1), its pid and user (given, or made from the record itself so that a rerun makes the same), its
 * document as the API stores it (compact JSON), and when it was created.
 */
public record ImportRecord(long position, UUID pid, UUID uid, String data, Instant createdAt) {
}
