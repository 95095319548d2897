package io.profilestore.auth;

import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Pattern;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * API keys: random tokens of 256 bits, of which the service knows only the SHA-256 (a slow hash buys nothing
 * against a random secret of that size, and costs every request). A key is compared in constant time.
 */
public final class ApiKeys {

    /**
     * One key as configured: who it is, the hash of its token, its roles (none when left out), and whether it was
     * made for a machine (a client system), which a key holding {@code platform} alone must say.
     */
    public record Entry(
            @NotEmpty String name,
            @NotEmpty
            @Pattern(regexp = "sha256:[0-9a-f]{64}", message = "must be sha256:<64 hex digits> (see the apikey command)")
            String hash,
            @NotEmpty List<String> roles,
            Boolean machine) {

        public Entry {
            roles = roles == null ? List.of() : roles;
        }

        /** A person's key. */
        public Entry(String name, String hash, List<String> roles) {
            this(name, hash, roles, null);
        }
    }

    private record Key(String name, byte[] hash, Set<Role> roles, boolean machine) {
    }

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String PREFIX = "psk_";

    private final List<Key> keys;
    private final boolean forPeople;

    /** Keys for machines and people alike. */
    public ApiKeys(List<Entry> entries) {
        this(entries, true);
    }

    /**
     * @param forPeople whether a person's key lets its holder in; off, people sign in through the organisation's
     *     provider (a JWT, with its second factor and its expiry) and only machines' keys are taken
     * @throws IllegalArgumentException for an entry that leaves a machine to be guessed, or a machine's with more roles
     */
    public ApiKeys(List<Entry> entries, boolean forPeople) {
        this.keys = entries.stream().map(ApiKeys::key).toList();
        this.forPeople = forPeople;
    }

    /** How many keys are people's: refused all when keys are not for people. */
    public long peoplesKeys() {
        return keys.stream().filter(key -> !key.machine()).count();
    }

    private static Key key(Entry entry) {
        var roles = entry.roles().stream().map(Role::of).collect(Collectors.toUnmodifiableSet());
        boolean platformAlone = roles.equals(Set.of(Role.PLATFORM));
        // a key used to be a machine's when platform was its only role: such a key must now say which it is, so that
        // no platform key becomes a person's (every read recorded first, a person's limits) or stays a machine's unseen
        if (entry.machine() == null && platformAlone) {
            throw new IllegalArgumentException("the API key '" + entry.name() + "' holds the platform role alone: say "
                    + "machine: true if it is a client system's, machine: false if a person uses it");
        }
        boolean machine = Boolean.TRUE.equals(entry.machine());
        if (machine && !platformAlone) {
            throw new IllegalArgumentException("the API key '" + entry.name() + "' is a machine's (machine: true), and a "
                    + "machine's key holds the platform role alone; people get keys (or JWTs) of their own");
        }
        if (!entry.hash().startsWith("sha256:")) {
            throw new IllegalArgumentException("the API key '" + entry.name() + "' has no sha256: hash");
        }
        return new Key(entry.name(), HexFormat.of().parseHex(entry.hash().substring("sha256:".length())), roles, machine);
    }

    /** The caller a token belongs to; every key is compared, so the time taken says nothing about which matched. */
    public Optional<Caller> authenticate(String token) {
        byte[] hash = sha256(token);
        Key found = null;
        for (var key : keys) {
            if (MessageDigest.isEqual(key.hash(), hash)) {
                found = key;
            }
        }
        return found == null || (!found.machine() && !forPeople) ? Optional.empty()
                : Optional.of(new Caller(found.name(), Caller.Kind.API_KEY, found.roles(), found.machine()));
    }

    /** A new random key and the hash to configure for it. */
    public static String[] generate() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        String token = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        return new String[] {token, hash(token)};
    }

    /** The configuration's form of a token's hash: {@code sha256:<hex>}. */
    public static String hash(String token) {
        return "sha256:" + HexFormat.of().formatHex(sha256(token));
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }
}
