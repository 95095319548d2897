package io.profilestore.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
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
import java.text.ParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Verifies JWTs with nimbus-jose-jwt: signature against the key set, issuer, audience, expiry; roles from a claim. */
public final class JwtVerifier {

    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private final String rolesClaim;
    private final Set<String> machineClients;

    public JwtVerifier(JwtSettings settings) {
        this.rolesClaim = settings.rolesClaim;
        this.machineClients = Set.copyOf(settings.machineClients);
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384,
                JWSAlgorithm.RS512, JWSAlgorithm.PS256, JWSAlgorithm.ES256, JWSAlgorithm.ES384), source(settings)));
        var verifier = new DefaultJWTClaimsVerifier<SecurityContext>(settings.audience,
                new JWTClaimsSet.Builder().issuer(settings.issuer).build(), Set.of("sub", "exp"));
        verifier.setMaxClockSkew((int) settings.clockSkew.toSeconds());
        processor.setJWTClaimsSetVerifier(verifier);
    }

    private static JWKSource<SecurityContext> source(JwtSettings settings) {
        try {
            if (!settings.jwksFile.isEmpty()) {
                return new ImmutableJWKSet<>(JWKSet.load(new File(settings.jwksFile)));
            }
            return JWKSourceBuilder.create(URI.create(settings.jwksUrl).toURL()).retrying(true).build();
        } catch (IOException | ParseException e) {
            throw new UncheckedIOException("cannot read the JWT key set", e instanceof IOException io ? io : new IOException(e));
        }
    }

    public Optional<Caller> authenticate(String token) {
        try {
            var claims = processor.process(token, null);
            return Optional.of(new Caller(claims.getSubject(), Caller.Kind.JWT, roles(claims),
                    machineClients.contains(client(claims))));
        } catch (ParseException | BadJOSEException | JOSEException e) {
            return Optional.empty();
        }
    }

    /**
     * The client the token was issued to: RFC 9068's {@code client_id}, else OIDC's {@code azp} (the authorized party,
     * which providers such as Keycloak set on every token); empty when it names none.
     */
    private static String client(JWTClaimsSet claims) throws ParseException {
        String clientId = claims.getStringClaim("client_id");
        if (clientId != null) {
            return clientId;
        }
        String azp = claims.getStringClaim("azp");
        return azp == null ? "" : azp;
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
