package io.profilestore.resources;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Text with no control character (a NUL, a line break...): no actor's name has one, and PostgreSQL's
 * {@code text} cannot even hold a NUL, so such a value is refused before it reaches a query. Null is valid.
 */
@Constraint(validatedBy = NoControlCharacters.Check.class)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.FIELD, ElementType.TYPE_USE})
public @interface NoControlCharacters {

    String message() default "must not contain control characters";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Check implements ConstraintValidator<NoControlCharacters, CharSequence> {
        @Override
        public boolean isValid(CharSequence value, ConstraintValidatorContext context) {
            return value == null || value.chars().noneMatch(Character::isISOControl);
        }
    }
}
