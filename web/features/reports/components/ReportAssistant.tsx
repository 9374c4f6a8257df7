/**
 * The AI assistant panel (docs/product.md "Screens: Reports", "States and transitions", AI report): a conversation that starts with the
 * bot's greeting; Report Type, Time Range and Records, then 'Generate Report' adds the request
 * as the user's message and, while the server works, the bot's bouncing dots; the reply follows
 * as formatted text, or the dots go and a toast tells the failure.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Sparkles } from 'lucide-react';
import { reportTypeLabels, reportTypes, type AssistantBody, type ReportType } from '../../../../common/contracts/reports';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { SelectField } from '../../../components/ui/SelectField';
import { useGenerateReport } from '../api/generate-report';
import { dayOptions, defaultRequest, GREETING, limitOptions, requestText, type ChatMessage } from '../assistant-chat';
import { ChatMessageItem, TypingIndicator } from './ChatMessageItem';

/** Renders the panel; the conversation lasts as long as the screen. */
export function ReportAssistant() {
  const id = useId();
  const generate = useGenerateReport();
  const [request, setRequest] = useState<AssistantBody>(defaultRequest);
  const [messages, setMessages] = useState<ChatMessage[]>([GREETING]);
  const nextId = useRef(GREETING.id + 1);
  const lastEntry = useRef<HTMLLIElement>(null);

  const isPending = generate.isPending;
  useEffect(() => {
    // The greeting alone needs no scrolling; afterwards the newest entry (the request with its
    // dots, then the reply's beginning) is brought into view.
    if (messages.length > 1) lastEntry.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [messages.length, isPending]);

  const add = (message: Omit<ChatMessage, 'id'>) => {
    const messageId = nextId.current++;
    setMessages((list) => [...list, { ...message, id: messageId }]);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    add({ sender: 'user', text: requestText(request) });
    generate.mutate(request, {
      // A header without records is nothing to download.
      onSuccess: (reply) => add({ sender: 'bot', text: reply.text, csv: reply.records > 0 ? reply.csv : undefined }),
    });
  };

  return (
    <Card
      aria-labelledby={`${id}-heading`}
      // Short enough on a wide screen that the trial pill in the corner never covers Generate Report.
      className="flex flex-col xl:h-[calc(100dvh-14rem)] xl:min-h-[28rem]"
      data-testid="report-assistant"
    >
      <div className="flex items-center gap-2 border-b border-slate-200 px-4 py-3">
        <Sparkles className="size-5 text-blue-700" aria-hidden="true" />
        <h2 id={`${id}-heading`} className="text-xl font-semibold text-slate-900">
          AI Report Assistant
        </h2>
      </div>
      <div role="log" aria-label="Conversation" className="min-h-40 px-4 py-4 xl:min-h-0 xl:flex-1 xl:overflow-y-auto">
        <ul className="flex flex-col gap-3">
          {messages.map((message, index) => (
            <ChatMessageItem key={message.id} message={message} ref={!isPending && index === messages.length - 1 ? lastEntry : undefined} />
          ))}
          {isPending && <TypingIndicator ref={lastEntry} />}
        </ul>
      </div>
      <form onSubmit={onSubmit} className="flex flex-col gap-3 border-t border-slate-200 p-4">
        <SelectField
          id={`${id}-type`}
          label="Report Type"
          value={request.type}
          onChange={(event) => setRequest({ ...request, type: event.target.value as ReportType })}
        >
          {reportTypes.map((type) => (
            <option key={type} value={type}>
              {reportTypeLabels[type]}
            </option>
          ))}
        </SelectField>
        <div className="grid grid-cols-2 gap-3">
          <SelectField
            id={`${id}-days`}
            label="Time Range"
            value={request.days}
            onChange={(event) => setRequest({ ...request, days: Number(event.target.value) as AssistantBody['days'] })}
          >
            {dayOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </SelectField>
          <SelectField
            id={`${id}-limit`}
            label="Records"
            value={request.limit}
            onChange={(event) => setRequest({ ...request, limit: Number(event.target.value) as AssistantBody['limit'] })}
          >
            {limitOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </SelectField>
        </div>
        <Button type="submit" isBusy={isPending}>
          {!isPending && <Sparkles className="size-5" aria-hidden="true" />}
          Generate Report
        </Button>
      </form>
    </Card>
  );
}
