package io.profilestore.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies JWTs with nimbus-jose-jwt: signature against the key set, its type (an access token's), issuer, audience,
 * expiry and lifetime; roles from a claim.
 */
public final class JwtVerifier {

    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private static final Logger LOG = LoggerFactory.getLogger(JwtVerifier.class);
    /** Clients said once to hold platform alone and be people's: a few, so a bound only against a flood of names. */
    private static final int MAX_CLIENTS_SAID = 100;

    /** The key set of a {@code jwksFile}, replaced when the file changes; unused with a {@code jwksUrl}. */
    private final AtomicReference<JWKSet> fileKeys = new AtomicReference<>();
    private final String rolesClaim;
    private final Duration maxLifetime;
    private final Duration skew;
    private final Set<String> machineClients;
    private final Set<String> clientsSaid = ConcurrentHashMap.newKeySet();

    public JwtVerifier(JwtSettings settings) {
        this.rolesClaim = settings.rolesClaim;
        this.machineClients = Set.copyOf(settings.machineClients);
        LOG.info("JWTs of these clients are machines' (auth.jwt.machineClients): {}",
                machineClients.isEmpty() ? "none" : String.join(", ", new TreeSet<>(machineClients)));
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384,
                JWSAlgorithm.RS512, JWSAlgorithm.PS256, JWSAlgorithm.ES256, JWSAlgorithm.ES384), source(settings)));
        var verifier = new DefaultJWTClaimsVerifier<SecurityContext>(settings.audience,
                new JWTClaimsSet.Builder().issuer(settings.issuer).build(), Set.of("sub", "exp", "iat"));
        verifier.setMaxClockSkew((int) settings.clockSkew.toSeconds());
        processor.setJWTClaimsSetVerifier(verifier);
        var types = settings.tokenTypes.stream().map(JwtVerifier::mediaType).collect(Collectors.toUnmodifiableSet());
        processor.setJWSTypeVerifier((type, context) -> {
            if (type == null || !types.contains(mediaType(type.getType()))) {
                throw new BadJOSEException("a token of another type (typ " + type + ")");
            }
        });
        this.maxLifetime = settings.maxTokenLifetime.toJavaDuration();
        this.skew = settings.clockSkew.toJavaDuration();
    }

    /**
     * The longest subject taken, the audit trail's longest actor to ask for ({@code GET /v1/audit?actor=}): providers'
     * are ids or names well under it (Keycloak's a UUID, Entra's 43 characters).
     */
    static final int MAX_SUBJECT = 200;

    /**
     * A subject names the caller in the audit trail, the logs and the limits: one of thousands of characters would be
     * refused by the audit trail's index on every try, and a control character by PostgreSQL.
     */
    private static boolean subjectAllowed(String subject) {
        return subject != null && !subject.isEmpty() && subject.length() <= MAX_SUBJECT
                && subject.chars().noneMatch(Character::isISOControl);
    }

    /** A JOSE typ as a media type: case does not count, and {@code application/} may be left out (RFC 7515, 4.1.9). */
    private static String mediaType(String type) {
        String lower = type.toLowerCase(Locale.ROOT);
        return lower.contains("/") ? lower : "application/" + lower;
    }

    /**
     * A token valid for longer than the maximum, or issued in the future, is refused whatever its expiry: a leaked
     * long-lived token would outlive any revocation at the provider.
     */
    private boolean lifetimeAllowed(JWTClaimsSet claims) {
        var issued = claims.getIssueTime().toInstant();
        var expires = claims.getExpirationTime().toInstant();
        return !issued.isAfter(Instant.now().plus(skew))
                && Duration.between(issued, expires).compareTo(maxLifetime.plus(skew)) <= 0;
    }

    private JWKSource<SecurityContext> source(JwtSettings settings) {
        try {
            if (!settings.jwksFile.isEmpty()) {
                fileKeys.set(JWKSet.load(new File(settings.jwksFile)));
                return (selector, context) -> selector.select(fileKeys.get());
            }
            return JWKSourceBuilder.create(URI.create(settings.jwksUrl).toURL()).retrying(true).build();
        } catch (IOException | ParseException e) {
            throw new UncheckedIOException("cannot read the JWT key set", e instanceof IOException io ? io : new IOException(e));
        }
    }

    /**
     * The key set file's new content ({@code jwksFile}, read again when it changes): a key the provider rotated in is
     * taken, one it withdrew is no longer. A set that cannot be read, or holds no key, is refused.
     */
    public void replaceKeySet(byte[] content) throws ParseException {
        var keys = JWKSet.parse(new String(content, StandardCharsets.UTF_8));
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("the key set holds no key");
        }
        fileKeys.set(keys);
    }

    public Optional<Caller> authenticate(String token) {
        try {
            var claims = processor.process(token, null);
            if (!lifetimeAllowed(claims) || !subjectAllowed(claims.getSubject())) {
                return Optional.empty();
            }
            var roles = roles(claims);
            return Optional.of(new Caller(claims.getSubject(), Caller.Kind.JWT, roles, machine(client(claims), roles)));
        } catch (ParseException | BadJOSEException | JOSEException e) {
            return Optional.empty();
        }
    }

    /**
     * A machine's token: issued to a client on the list, and holding {@code platform} alone, as a machine's API key
     * must (a person who signs in through a machine's client, or a token of it with an admin's role, stays a
     * person, audited before each look-up). A token holding platform alone from a client not on the list is a
     * person's too; the first of each such client is logged, since after an upgrade it may be a machine not yet
     * listed, now audited and limited as a person.
     */
    private boolean machine(String client, Set<Role> roles) {
        boolean platformAlone = roles.equals(Set.of(Role.PLATFORM));
        if (machineClients.contains(client)) {
            return platformAlone;
        }
        if (platformAlone && clientsSaid.size() < MAX_CLIENTS_SAID && clientsSaid.add(client)) {
            LOG.warn("a JWT of client '{}' holds the platform role alone and is a person's: list the client in "
                    + "auth.jwt.machineClients if it is a machine", client.isEmpty() ? "(none named)" : client);
        }
        return false;
    }

    /**
     * The client the token was issued to: RFC 9068's {@code client_id}, else OIDC's {@code azp} (the authorized party,
     * which providers such as Keycloak set on every token); empty when it names none or not as a text.
     */
    private static String client(JWTClaimsSet claims) {
        for (String claim : List.of("client_id", "azp")) {
            if (claims.getClaim(claim) instanceof String client) {
                return client;
            }
        }
        return "";
    }

    private Set<Role> roles(JWTClaimsSet claims) throws ParseException {
        var names = new ArrayList<String>();
        Object claim = claims.getClaim(rolesClaim);
        if (claim instanceof String text) {
            names.addAll(List.of(text.split("\\s+")));
        } else if (claim != null) {
            names.addAll(claims.getStringListClaim(rolesClaim));
        }
        var roles = EnumSet.noneOf(Role.class);
        for (String name : names) {
            try {
                roles.add(Role.of(name));
            } catch (IllegalArgumentException unknown) {
                // roles of other applications in the same token
            }
        }
        return roles;
    }
}
