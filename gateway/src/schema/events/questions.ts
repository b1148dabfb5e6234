import { randomBytes } from "node:crypto";
import { LIMITS } from "@flock/shared/limits";
import type { Validator } from "../../validation/validate.ts";
import type { RegistrationAnswer, RegistrationQuestion } from "../../pocketbase/records.ts";
import type { RegistrationAnswerInput, RegistrationQuestionInput } from "../__generated__/types.ts";

// An event's own registration questions (events.questions) and a party's answers to them
// (registrations.answers): what staff may ask, and what a registration must answer. Field errors name
// `questions.<n>.<field>` and `answers.<question id>`, so the forms mark the very input.

const ID = /^[a-z0-9]{6,20}$/;
const newId = () => randomBytes(6).toString("hex");
const YES_NO = ["YES", "NO"];

/** EventInput.questions as stored: trimmed, checked against the limits, each with an id (kept when sent). */
export function validateQuestions(
  v: Validator,
  input: readonly RegistrationQuestionInput[] | null | undefined,
): RegistrationQuestion[] | undefined {
  if (input == null) return undefined;
  if (input.length > LIMITS.registrationQuestionsMax)
    v.add("questions", "too_many", `Ask at most ${LIMITS.registrationQuestionsMax} questions.`);
  const seen = new Set<string>();
  return input.slice(0, LIMITS.registrationQuestionsMax).map((q, n) => {
    const label = v.text(`questions.${n}.label`, q.label, { required: true, max: LIMITS.questionLabelMax });
    const options =
      q.kind === "choice" ? [...new Set((q.options ?? []).map((o) => o.trim()).filter(Boolean))] : [];
    if (q.kind === "choice") {
      if (options.length < 2)
        v.add(`questions.${n}.options`, "too_few", "Give at least two different choices.");
      else if (options.length > LIMITS.questionChoicesMax)
        v.add(`questions.${n}.options`, "too_many", `Give at most ${LIMITS.questionChoicesMax} choices.`);
      else if (options.some((o) => o.length > LIMITS.questionChoiceMax))
        v.add(
          `questions.${n}.options`,
          "too_long",
          `Keep each choice to ${LIMITS.questionChoiceMax} characters.`,
        );
    }
    const id = q.id && ID.test(q.id) && !seen.has(q.id) ? q.id : newId();
    seen.add(id);
    return { id, label, kind: q.kind, options, required: !!q.required };
  });
}

/**
 * RegistrationInput.answers against the event's questions: every required one answered, a choice
 * among its options, YES or NO, text within the limit. Answers to questions the event does not ask
 * are dropped; stored in the form's order with the wording asked.
 */
export function validateAnswers(
  v: Validator,
  questions: readonly RegistrationQuestion[],
  input: readonly RegistrationAnswerInput[] | null | undefined,
): RegistrationAnswer[] {
  const given = new Map((input ?? []).map((a) => [a.questionId, a.value.trim()]));
  const answers: RegistrationAnswer[] = [];
  for (const q of questions) {
    const field = `answers.${q.id}`;
    const value = given.get(q.id) ?? "";
    if (!value) {
      if (q.required) v.add(field, "required", "Please answer this question.");
      continue;
    }
    if (q.kind === "choice" && !q.options.includes(value))
      v.add(field, "invalid", "Choose one of the options.");
    else if (q.kind === "yes_no" && !YES_NO.includes(value)) v.add(field, "invalid", "Answer yes or no.");
    else if (value.length > LIMITS.answerMax)
      v.add(field, "too_long", `Use at most ${LIMITS.answerMax} characters.`);
    else answers.push({ questionId: q.id, question: q.label, value });
  }
  return answers;
}
