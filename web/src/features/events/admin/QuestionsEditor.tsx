import { LIMITS } from "@flock/shared/limits";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../../../components/Field.tsx";
import type { QuestionKind, RegistrationQuestionInput } from "../../../gql/types.ts";

/** A question as the form edits it: choices one per line. */
export interface QuestionDraft {
  /** The saved question's id (its answers stay with it); absent for a new one. */
  id?: string;
  label: string;
  kind: QuestionKind;
  options: string;
  required: boolean;
}

export const questionDrafts = (
  questions: ReadonlyArray<{
    id: string;
    label: string;
    kind: QuestionKind;
    options: string[];
    required: boolean;
  }>,
): QuestionDraft[] => questions.map((q) => ({ ...q, options: q.options.join("\n") }));

export const questionInputs = (drafts: QuestionDraft[]): RegistrationQuestionInput[] =>
  drafts.map((q) => ({
    id: q.id ?? null,
    label: q.label,
    kind: q.kind,
    options: q.kind === "CHOICE" ? q.options.split("\n") : [],
    required: q.required,
  }));

/**
 * The registration form's own questions (diet, childcare, T-shirt size): add, word, choose the kind,
 * list a choice's options, mark required, move, remove. Answers appear in the attendee list and CSV.
 */
export function QuestionsEditor({
  questions,
  onChange,
  errors,
}: {
  questions: QuestionDraft[];
  onChange: (questions: QuestionDraft[]) => void;
  errors: Record<string, string>;
}) {
  const { t } = useI18n();
  const change = (n: number, patch: Partial<QuestionDraft>) =>
    onChange(questions.map((q, i) => (i === n ? { ...q, ...patch } : q)));
  const move = (n: number, by: -1 | 1) => {
    const next = [...questions];
    [next[n], next[n + by]] = [next[n + by]!, next[n]!];
    onChange(next);
  };
  return (
    <fieldset className="event-questions">
      <legend>{t("admin.events.questions")}</legend>
      <p className="field__hint">{t("admin.events.questionsHint")}</p>
      {errors.questions && (
        <p className="field__error" role="alert">
          {errors.questions}
        </p>
      )}
      <ol className="event-questions__list">
        {questions.map((q, n) => (
          <li key={q.id ?? `new-${n}`} className="event-questions__item">
            <TextField
              label={t("admin.events.question.label", { n: n + 1 })}
              value={q.label}
              maxLength={LIMITS.questionLabelMax}
              onChange={(e) => change(n, { label: e.target.value })}
              error={errors[`questions.${n}.label`]}
            />
            <SelectField
              label={t("admin.events.question.kind")}
              value={q.kind}
              onChange={(e) => change(n, { kind: e.target.value as QuestionKind })}
            >
              <option value="TEXT">{t("admin.events.question.kind.text")}</option>
              <option value="CHOICE">{t("admin.events.question.kind.choice")}</option>
              <option value="YES_NO">{t("admin.events.question.kind.yesNo")}</option>
            </SelectField>
            {q.kind === "CHOICE" && (
              <TextAreaField
                label={t("admin.events.question.options")}
                hint={t("admin.events.question.optionsHint", { max: LIMITS.questionChoicesMax })}
                rows={4}
                value={q.options}
                onChange={(e) => change(n, { options: e.target.value })}
                error={errors[`questions.${n}.options`]}
              />
            )}
            <CheckboxField
              label={t("admin.events.question.required")}
              checked={q.required}
              onChange={(e) => change(n, { required: e.target.checked })}
            />
            <p className="event-questions__actions">
              <button
                type="button"
                className="button button--small button--ghost"
                disabled={n === 0}
                onClick={() => move(n, -1)}
                aria-label={t("admin.events.question.up", { n: n + 1 })}
              >
                ↑
              </button>
              <button
                type="button"
                className="button button--small button--ghost"
                disabled={n === questions.length - 1}
                onClick={() => move(n, 1)}
                aria-label={t("admin.events.question.down", { n: n + 1 })}
              >
                ↓
              </button>
              <button
                type="button"
                className="link-button"
                onClick={() => onChange(questions.filter((_, i) => i !== n))}
              >
                {t("admin.events.question.remove", { n: n + 1 })}
              </button>
            </p>
          </li>
        ))}
      </ol>
      {questions.length < LIMITS.registrationQuestionsMax && (
        <button
          type="button"
          className="button button--ghost"
          onClick={() => onChange([...questions, { label: "", kind: "TEXT", options: "", required: false }])}
        >
          {t("admin.events.question.add")}
        </button>
      )}
    </fieldset>
  );
}
