package io.profilestore.search;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seals a search cursor for the caller: encrypted and authenticated (AES-256-GCM), bound to the search it
 * continues, good until its expiry. Inside is where the next page starts, the last hit's sort values, a person's
 * name among them; a cursor travels in URLs, so it must not show them, and a cursor altered, forged or taken to
 * another search must be refused rather than read.
 */
public final class CursorSeal {

    private static final Logger LOG = LoggerFactory.getLogger(CursorSeal.class);
    /**
     * Nonces from a DRBG, computed in the JVM: the platform's default reads /dev/urandom on every call, a system call
     * per page of every search (both serialize their callers).
     */
    private static final SecureRandom RANDOM = drbg();
    /** A cipher per thread, initialized anew for each seal: looking one up costs more than the sealing. */
    private static final ThreadLocal<Cipher> CIPHERS = ThreadLocal.withInitial(() -> {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no AES-GCM", e);
        }
    });
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    /** Far above any cursor of ours (three sort values, a long name among them), far below a URL's limit. */
    static final int MAX_LENGTH = 4096;
    /**
     * What is sealed is padded to a multiple of this, since AES-GCM keeps the length of what it seals, and the
     * cursor's length would tell the length of the last hit's name.
     */
    static final int BLOCK = 256;
    private static final byte PAD = ' ';

    private final SecretKey key;
    private final Duration ttl;
    private final Clock clock;

    CursorSeal(SecretKey key, Duration ttl, Clock clock) {
        this.key = key;
        this.ttl = ttl;
        this.clock = clock;
    }

    public static CursorSeal of(SearchSettings settings) {
        SecretKey key;
        if (settings.cursorKey.isEmpty()) {
            LOG.warn("search.cursorKey is not set: a cursor works only on the instance that gave it out; give every "
                    + "API instance the same key (docs/security.md, Cursors are sealed)");
            key = randomKey();
        } else {
            key = new SecretKeySpec(Base64.getDecoder().decode(settings.cursorKey), "AES");
        }
        return new CursorSeal(key, settings.cursorTtl.toJavaDuration(), Clock.systemUTC());
    }

    private static SecureRandom drbg() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (GeneralSecurityException e) {
            return new SecureRandom();
        }
    }

    static SecretKey randomKey() {
        try {
            var generator = KeyGenerator.getInstance("AES");
            generator.init(256, RANDOM);
            return generator.generateKey();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM cannot make AES keys", e);
        }
    }

    /** The sealed form of a cursor (which ends in no space) for the search described by {@code search}. */
    public String seal(String cursor, String search) {
        byte[] unpadded = cursor.getBytes(StandardCharsets.UTF_8);
        byte[] plain = Arrays.copyOf(unpadded, (unpadded.length / BLOCK + 1) * BLOCK);
        Arrays.fill(plain, unpadded.length, plain.length, PAD);
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        long expires = clock.millis() + ttl.toMillis();
        try {
            var cipher = cipher(Cipher.ENCRYPT_MODE, nonce, search);
            byte[] sealed = cipher.doFinal(ByteBuffer.allocate(Long.BYTES + plain.length).putLong(expires).put(plain).array());
            var out = ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
            return Base64.getUrlEncoder().withoutPadding().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot seal a cursor", e);
        }
    }

    /** The cursor inside, when the seal is ours, intact, for this search and not expired; else a 400. */
    public String open(String sealed, String search) {
        if (sealed.length() > MAX_LENGTH) {
            throw notOurs();
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(sealed);
        } catch (IllegalArgumentException e) {
            throw notOurs();
        }
        if (bytes.length < NONCE_BYTES + Long.BYTES + TAG_BITS / 8) {
            throw notOurs();
        }
        byte[] inside;
        try {
            inside = cipher(Cipher.DECRYPT_MODE, Arrays.copyOf(bytes, NONCE_BYTES), search)
                    .doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES);
        } catch (GeneralSecurityException e) {
            throw notOurs();
        }
        var buffer = ByteBuffer.wrap(inside);
        if (buffer.getLong() < clock.millis()) {
            throw new InvalidSearchException("cursor-expired", "the cursor expired; start the search again");
        }
        int end = inside.length;
        while (end > Long.BYTES && inside[end - 1] == PAD) {
            end--;
        }
        return new String(inside, Long.BYTES, end - Long.BYTES, StandardCharsets.UTF_8);
    }

    private Cipher cipher(int mode, byte[] nonce, String search) throws GeneralSecurityException {
        var cipher = CIPHERS.get();
        cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD(search.getBytes(StandardCharsets.UTF_8));
        return cipher;
    }

    private static InvalidSearchException notOurs() {
        return new InvalidSearchException("invalid-query",
                "the cursor is not one this service gave out for this search; start the search again");
    }
}
